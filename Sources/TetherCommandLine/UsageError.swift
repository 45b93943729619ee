/// A command line that cannot be run: the program prints `Error: <message>` and
/// exits 64 (`EX_USAGE`).
public struct UsageError: Error, Equatable, Sendable {
    /// The message after `Error: `.
    public var message: String

    public init(_ message: String) { self.message = message }
}
