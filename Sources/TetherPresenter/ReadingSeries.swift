/// Everything seen of one named reading since the session started: the latest value,
/// the smallest, largest and mean of its numeric values, and the most recent of them.
public struct ReadingSeries: Sendable, Equatable {
    /// The latest value.
    public var latest: Reading
    /// How many numeric values were seen.
    public var count = 0
    /// The smallest numeric value seen, `nil` before the first.
    public var minimum: Double?
    /// The largest numeric value seen.
    public var maximum: Double?
    /// The mean of the numeric values seen.
    public var mean: Double?
    /// The most recent numeric values, oldest first, at most ``maximumHistory``.
    public var history: [Double] = []

    /// How many values ``history`` keeps.
    public static let maximumHistory = 60

    /// Starts a series with its first value.
    public init(_ first: Reading) {
        latest = first
        if let number = first.number { add(number) }
    }

    /// Takes a newer value of the same reading. A value that is not a number replaces
    /// the latest one but leaves the statistics alone.
    public mutating func update(with reading: Reading) {
        latest = reading
        if let number = reading.number { add(number) }
    }

    private mutating func add(_ number: Double) {
        count += 1
        minimum = Swift.min(minimum ?? number, number)
        maximum = Swift.max(maximum ?? number, number)
        let previous = mean ?? 0
        mean = previous + (number - previous) / Double(count)
        history.append(number)
        if history.count > Self.maximumHistory { history.removeFirst() }
    }
}
