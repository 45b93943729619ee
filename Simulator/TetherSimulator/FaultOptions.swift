/// The simulator's fault options (`tether-sim --latency 50 …`, and `tether --sim` takes
/// the same) that fill a ``FaultPlan``: their help, and the values given so far while a
/// command line is parsed.
public struct FaultOptions: Equatable, Sendable {
    /// A value an option does not take, or options that do not go together; the
    /// message names the option and what was expected.
    public struct Mistake: Error, Equatable {
        /// One line, e.g. `The value 'x' is invalid for '--latency <ms>': expected …`.
        public let message: String
    }

    /// The plan so far, without its disconnect (built by ``plan(seed:)``).
    private var faults = FaultPlan()
    private var trigger: FaultPlan.DisconnectTrigger?
    private var reappearAfter: Duration?

    /// One option: its name, the name of its value (`nil` for a flag) and its help.
    public struct Option: Sendable {
        /// E.g. `--latency`.
        public let name: String
        /// The value's name, e.g. `ms`; `nil` for a flag.
        public let value: String?
        /// One sentence of help.
        public let help: String
    }

    /// Every fault option, in the order `--help` lists them.
    public static let all: [Option] = [
        Option(name: "--latency", value: "ms", help: "Delay every reply by this many ms."),
        Option(name: "--jitter", value: "ms", help: "Delay every reply by a further random 0 … ms (order kept)."),
        Option(
            name: "--pace-baud", value: "rate", help: "Send at this baud rate, 10 bits a byte (9600 ≈ 1.04 ms/byte)."),
        Option(name: "--split", value: "bytes", help: "Split every write into random pieces of 1 … bytes."),
        Option(name: "--split-gap", value: "ms", help: "The longest random gap between split pieces (default: 2)."),
        Option(
            name: "--garbage", value: "p",
            help: "Put 1 … 8 random bytes (never CR/LF) before a line, probability 0 … 1."),
        Option(name: "--drop", value: "p", help: "Leave a reply out, probability 0 … 1."),
        Option(name: "--duplicate", value: "p", help: "Send a reply twice (in one write), probability 0 … 1."),
        Option(name: "--disconnect-after", value: "ms", help: "Hang up this many ms after a client opens the port."),
        Option(name: "--disconnect-after-lines", value: "n", help: "Hang up after n lines have been sent to a client."),
        Option(
            name: "--reappear-after", value: "ms",
            help:
                "After a hang-up, come back on a new pty (same --link) this many ms later; without it the device is gone for good."
        ),
        Option(
            name: "--burst", value: "n@rate",
            help: "On each open, send n '!BURST n=<i>' lines at rate lines/s (e.g. 1000@2000)."),
        Option(
            name: "--sequence-numbers", value: nil,
            help: "Append ' seq=<n>' to every notification line (n from 1, never reset)."),
    ]

    /// No faults.
    public init() {}

    /// Whether any fault was asked for.
    public var isEmpty: Bool { self == FaultOptions() }

    /// The option called `name`, if it is a fault option.
    public static func option(named name: String) -> Option? {
        all.first { $0.name == name }
    }

    /// Takes `option` with its `value` (`nil` for a flag).
    ///
    /// - Throws: ``Mistake`` when the value is not what the option takes,
    ///   or both disconnect options are given.
    public mutating func apply(_ option: Option, value: String?) throws(Mistake) {
        let value = value ?? ""
        switch option.name {
        case "--latency": faults.latency = .milliseconds(try Self.whole(value, for: option, minimum: 0))
        case "--jitter": faults.jitter = .milliseconds(try Self.whole(value, for: option, minimum: 0))
        case "--pace-baud": faults.paceBaud = try Self.whole(value, for: option, minimum: 1)
        case "--split": faults.splitMaximum = try Self.whole(value, for: option, minimum: 1)
        case "--split-gap": faults.splitGap = .milliseconds(try Self.whole(value, for: option, minimum: 0))
        case "--garbage": faults.garbageProbability = try Self.probability(value, for: option)
        case "--drop": faults.dropProbability = try Self.probability(value, for: option)
        case "--duplicate": faults.duplicateProbability = try Self.probability(value, for: option)
        case "--disconnect-after":
            try setTrigger(.after(.milliseconds(try Self.whole(value, for: option, minimum: 1))))
        case "--disconnect-after-lines":
            try setTrigger(.afterLines(try Self.whole(value, for: option, minimum: 1)))
        case "--reappear-after":
            reappearAfter = .milliseconds(try Self.whole(value, for: option, minimum: 0))
        case "--burst": faults.burst = try Self.burst(value, for: option)
        default: faults.sequenceNumbers = true
        }
    }

    /// The plan the options describe, its random choices seeded by `seed`.
    ///
    /// - Throws: ``Mistake`` for `--reappear-after` without a
    ///   disconnect option.
    public func plan(seed: UInt64) throws(Mistake) -> FaultPlan {
        var plan = faults
        plan.seed = seed
        if let trigger {
            plan.disconnect = .init(trigger: trigger, reappearAfter: reappearAfter)
        } else if reappearAfter != nil {
            throw .init(
                message: "'--reappear-after' needs '--disconnect-after <ms>' or '--disconnect-after-lines <n>'")
        }
        return plan
    }

    private mutating func setTrigger(_ trigger: FaultPlan.DisconnectTrigger)
        throws(Mistake)
    {
        guard self.trigger == nil else {
            throw .init(message: "Give only one of '--disconnect-after' and '--disconnect-after-lines'")
        }
        self.trigger = trigger
    }

    private static func whole(_ value: String, for option: Option, minimum: Int)
        throws(Mistake) -> Int
    {
        guard let number = Int(value), number >= minimum else {
            throw invalid(value, for: option, expected: "a whole number, \(minimum) or more")
        }
        return number
    }

    private static func probability(_ value: String, for option: Option)
        throws(Mistake) -> Double
    {
        guard let number = Double(value), number >= 0, number <= 1 else {
            throw invalid(value, for: option, expected: "a probability from 0 to 1, e.g. 0.1")
        }
        return number
    }

    private static func burst(_ value: String, for option: Option)
        throws(Mistake) -> FaultPlan.Burst
    {
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0]), count > 0, let rate = Double(parts[1]),
            rate > 0, rate.isFinite
        else {
            throw invalid(value, for: option, expected: "<count>@<lines per second>, e.g. 1000@2000")
        }
        return FaultPlan.Burst(count: count, rate: rate)
    }

    private static func invalid(_ value: String, for option: Option, expected: String)
        -> Mistake
    {
        .init(
            message:
                "The value '\(value)' is invalid for '\(option.name) <\(option.value ?? "")>': expected \(expected)")
    }
}
