/// The faults a ``Simulator`` injects into its device's conversation, and the sequence
/// numbers it can put on notifications — all off by default.
///
/// The device (a ``SimulatedDevice``) stays unaware of faults: the simulator transforms
/// what the device returns. Outputs of ``SimulatedDevice/receive(_:at:)`` are *replies*;
/// outputs of ``SimulatedDevice/wakeUp(at:)`` and burst lines are *notifications*
/// (unsolicited). Every random choice is drawn from `SeededRandomGenerator`s derived
/// from ``seed`` (one stream per kind of fault), so the same seed and the same client
/// behaviour (the same commands, read in the same pieces) replay the same faults.
///
/// ```swift
/// var faults = FaultPlan(seed: 7)
/// faults.latency = .milliseconds(50)
/// faults.jitter = .milliseconds(20)
/// faults.dropProbability = 0.1
/// let simulator = try Simulator(link: "/tmp/ttyENV", faults: faults)
/// ```
public struct FaultPlan: Sendable, Equatable {
    /// When the simulator hangs up on its own (see ``disconnect``).
    public enum DisconnectTrigger: Sendable, Equatable {
        /// This long after a client opened the port.
        case after(Duration)
        /// Once this many lines (counted by their terminators, CR LF as one) have been
        /// written to a client since it opened the port (at least 1).
        case afterLines(Int)
    }

    /// A simulated unplug: the device hangs up, and comes back on a new pseudo-terminal.
    public struct Disconnect: Sendable, Equatable {
        /// What starts the hang-up. From then on the device is no longer called, pending
        /// outputs are dropped, bytes already handed to the writer are written, and
        /// ``Simulator/hangUpGrace`` later the master closes (so the client has read
        /// them: the kernel discards unread bytes at hang-up).
        public var trigger: DisconnectTrigger
        /// How long the device stays away before a new pseudo-terminal appears (the
        /// `link`, when there is one, is removed during that time and then points to the
        /// new slave); `nil`: it never comes back and the simulator stops. Every new
        /// connection is subject to ``trigger`` again, so the device keeps flapping.
        public var reappearAfter: Duration?

        /// Creates a disconnect plan.
        public init(trigger: DisconnectTrigger, reappearAfter: Duration? = nil) {
            self.trigger = trigger
            self.reappearAfter = reappearAfter
        }
    }

    /// A burst of notification lines at a fixed rate, starting ``Burst/startDelay`` after
    /// each client opens the port.
    public struct Burst: Sendable, Equatable {
        /// How many lines per connection (at least 1).
        public var count: Int
        /// Lines per second (more than 0).
        public var rate: Double
        /// The line's text, followed by ` n=<i>` (1 … ``count``) and CR LF; default
        /// `!BURST`, a notification to tether's simulator dialect (`^!`).
        public var text: String
        /// The first line's delay after the open, so the client can set raw mode first.
        public static let startDelay: Duration = .milliseconds(200)

        /// Creates a burst of `count` lines at `rate` lines per second.
        public init(count: Int, rate: Double, text: String = "!BURST") {
            self.count = count
            self.rate = rate
            self.text = text
        }
    }

    /// Seeds every random choice; equal seeds replay equal faults.
    public var seed: UInt64
    /// Added to the delay of every reply.
    public var latency: Duration = .zero
    /// Added once more to each reply's delay than to the one before it on the same
    /// connection: a device falling behind (the n-th reply, from 0, is `n × latencyStep`
    /// later than ``latency`` alone). Replies keep their order.
    public var latencyStep: Duration = .zero
    /// A further random delay, uniform in 0 … `jitter`, for every reply. Replies never
    /// overtake each other: a reply is never due before the one before it.
    public var jitter: Duration = .zero
    /// Paces all output at this many baud, 10 bits per byte (8N1): at 9600 baud a byte
    /// takes about 1.04 ms. `nil`: as fast as the pseudo-terminal takes it.
    public var paceBaud: Int?
    /// Splits every write into random pieces of 1 … `splitMaximum` bytes, each written
    /// with its own `write()`, separated by random gaps of 0 … ``splitGap``. `nil`: one
    /// `write()` per output.
    public var splitMaximum: Int?
    /// The longest gap between two pieces of a split write.
    public var splitGap: Duration = .milliseconds(2)
    /// The probability (0 … 1) that a line is preceded by 1 … 8 random bytes that are
    /// neither CR nor LF. They arrive glued to the start of that line, so the number of
    /// lines is unchanged: replies still pair with their commands, with noise in front.
    /// (A client that recognises notifications by a prefix should match the prefix
    /// anywhere in the line, e.g. `--notify-pattern '!(READING|ALARM|BURST)'`.)
    public var garbageProbability: Double = 0
    /// The probability (0 … 1) that a reply (everything one ``SimulatedDevice/receive(_:at:)``
    /// call returned) is not sent at all.
    public var dropProbability: Double = 0
    /// The probability (0 … 1) that a reply is sent twice, the copy in the same `write()`
    /// right behind the original, so it arrives before the client can send its next
    /// command (a client sees it as an unsolicited line).
    public var duplicateProbability: Double = 0
    /// A receiver without a FIFO (`ReceiveGate`): each byte from the client that
    /// arrives less than this long after the last byte the device accepted is dropped
    /// before the device sees it (the transcript notes it). `nil`: every byte is taken.
    public var receiveGap: Duration?
    /// A receiver that drains the client's bytes no faster than this baud rate, 10 bits
    /// a byte (`DrainGate`): what it has not read stays in the pty and holds the
    /// client's writes back. `nil`: it reads as fast as bytes come.
    public var drainBaud: Int?
    /// After its first read on a connection the device reads nothing for this long (a
    /// device holding XOFF while it writes flash, `DrainGate`). `nil`: no hold.
    public var holdInput: Duration?
    /// A simulated unplug, or `nil`.
    public var disconnect: Disconnect?
    /// A burst of notifications on each connection, or `nil`.
    public var burst: Burst?
    /// Appends ` seq=<n>` to every notification line (before its terminator): `n` counts
    /// from 1 per simulator and goes on across clients and reconnects, so a consumer can
    /// prove it lost nothing. Numbers are given when the line is written, in the order
    /// the lines go out; notifications the device never produced (no client, device
    /// away) take no number.
    public var sequenceNumbers = false

    /// No faults; `seed` fixes the random choices of any fault switched on later.
    public init(seed: UInt64 = 0) {
        self.seed = seed
    }

    /// Whether this plan changes nothing (the simulator then behaves exactly as without it).
    public var isEmpty: Bool {
        self == FaultPlan(seed: seed)
    }
}
