import Synchronization

/// A device that replays an exact transcript: for tests that feed the bytes of a device
/// case through a real pseudo-terminal.
///
/// - On open: when a client opens the port, ``onOpen`` chunks are sent.
/// - Rules: every byte received is appended to a buffer. Whenever a rule's trigger
///   occurs in the buffer, the rule fires and the buffer is consumed up to the end of
///   that occurrence, so a rule fires once per time its command is sent, also when
///   several commands arrive in one read or one command arrives byte by byte. When
///   several rules match, the occurrence that ends first wins (rule order breaks ties).
/// - Chunks: each chunk is written with one `write()`, ``Chunk/delay`` after the previous
///   chunk of the same rule (the first one: after the trigger's last byte arrived).
/// - Hang-up: a rule with ``Rule/hangUpAfter`` closes the master that long after its last
///   chunk was sent (the client sees a hang-up; the simulator stops). Leave about 300 ms
///   if the client must read the last chunk first: the kernel discards unread bytes at
///   hang-up.
///
/// ```swift
/// let device = ScriptedDevice(rules: [
///     .init(on: "AT+CSQ\r", send: [
///         .init("\r\n+CSQ: 2"),
///         .init("3,99\r\n", after: .milliseconds(150)),
///         .init("\r\nOK\r\n", after: .milliseconds(150)),
///     ]),
/// ])
/// ```
public final class ScriptedDevice: SimulatedDevice {
    /// Bytes written in one `write()`, after a delay.
    public struct Chunk: Sendable, Equatable {
        /// The bytes, exactly.
        public var bytes: [UInt8]
        /// Time since the previous chunk of the same rule (or since the trigger).
        public var delay: Duration
        /// Instead of bytes, the modem status inputs to play from then on (DCD dropped, RI
        /// ringing: ``Simulator/setModemInputs(_:)``), or `nil`.
        public var modemInputs: Simulator.ModemInputs?

        /// A chunk of raw bytes.
        public init(_ bytes: [UInt8], after delay: Duration = .zero) {
            self.bytes = bytes
            self.delay = delay
        }

        /// A change of the modem status inputs, e.g. `Chunk(modemInputs: [.cts, .dsr])`:
        /// DCD drops.
        public init(modemInputs: Simulator.ModemInputs, after delay: Duration = .zero) {
            self.init([], after: delay)
            self.modemInputs = modemInputs
        }

        /// A chunk of the UTF-8 bytes of `text` (write escapes such as `"\r\n"` in it).
        public init(_ text: String, after delay: Duration = .zero) {
            self.init(Array(text.utf8), after: delay)
        }
    }

    /// "When these bytes have been received, send these chunks."
    public struct Rule: Sendable, Equatable {
        /// The exact bytes that fire the rule, e.g. `"AT+CSQ\r"`; not empty.
        public var trigger: [UInt8]
        /// The reply.
        public var chunks: [Chunk]
        /// When set, hang up this long after the last chunk (or after the trigger, when
        /// there are no chunks).
        public var hangUpAfter: Duration?

        /// A rule triggered by raw bytes.
        ///
        /// - Precondition: `trigger` is not empty.
        public init(on trigger: [UInt8], send chunks: [Chunk], hangUpAfter: Duration? = nil) {
            precondition(!trigger.isEmpty, "a ScriptedDevice rule needs a trigger")
            self.trigger = trigger
            self.chunks = chunks
            self.hangUpAfter = hangUpAfter
        }

        /// A rule triggered by the UTF-8 bytes of `trigger`.
        public init(on trigger: String, send chunks: [Chunk], hangUpAfter: Duration? = nil) {
            self.init(on: Array(trigger.utf8), send: chunks, hangUpAfter: hangUpAfter)
        }
    }

    /// Chunks sent when a client opens the port.
    public let onOpen: [Chunk]
    /// The rules, in priority order.
    public let rules: [Rule]

    /// Received bytes not yet consumed by a match (at most the longest trigger).
    private let unmatched = Mutex<[UInt8]>([])
    private let longestTrigger: Int

    /// Creates a scripted device.
    ///
    /// - Parameters:
    ///   - onOpen: Chunks sent when a client opens the port, each after its delay.
    ///   - rules: The replies to commands.
    public init(onOpen: [Chunk] = [], rules: [Rule] = []) {
        self.onOpen = onOpen
        self.rules = rules
        self.longestTrigger = rules.map(\.trigger.count).max() ?? 1
    }

    public func clientDidConnect(at now: ContinuousClock.Instant) -> [DeviceOutput] {
        unmatched.withLock { $0.removeAll() }
        return Self.outputs(for: onOpen, hangUpAfter: nil)
    }

    public func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [DeviceOutput] {
        unmatched.withLock { buffer in
            buffer += bytes
            var outputs: [DeviceOutput] = []
            while let (rule, end) = firstMatch(in: buffer) {
                outputs += Self.outputs(for: rule.chunks, hangUpAfter: rule.hangUpAfter)
                buffer.removeFirst(end)
            }
            // Bytes further back than the longest trigger can never start a match.
            buffer.removeFirst(max(0, buffer.count - longestTrigger + 1))
            return outputs
        }
    }

    /// The rule whose trigger ends first in `buffer`, and that end's index.
    private func firstMatch(in buffer: [UInt8]) -> (Rule, Int)? {
        var best: (Rule, Int)?
        for rule in rules {
            if let end = Self.endOfFirstOccurrence(of: rule.trigger, in: buffer),
                end < best?.1 ?? Int.max
            {
                best = (rule, end)
            }
        }
        return best
    }

    private static func endOfFirstOccurrence(of pattern: [UInt8], in buffer: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for start in 0...(buffer.count - pattern.count)
        where buffer[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start + pattern.count
        }
        return nil
    }

    /// Chunks with delays between them → outputs with delays from the trigger.
    private static func outputs(for chunks: [Chunk], hangUpAfter: Duration?) -> [DeviceOutput] {
        var elapsed = Duration.zero
        var outputs = chunks.map { chunk in
            elapsed += chunk.delay
            if let inputs = chunk.modemInputs { return DeviceOutput.modemInputs(inputs, after: elapsed) }
            return DeviceOutput.send(chunk.bytes, after: elapsed)
        }
        if let hangUpAfter {
            outputs.append(.hangUp(after: elapsed + hangUpAfter))
        }
        return outputs
    }
}
