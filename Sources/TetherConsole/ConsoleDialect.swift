import TetherModel

/// The dialect of a `connect` session: the device's own dialect for typed lines, plus
/// keystrokes (raw mode) that go to the port exactly as typed.
///
/// A keystroke command is written ``keystrokes(_:)``: a U+0000 marker, then one
/// scalar per byte (U+0000–U+00FF). A line from the line editor can never start with
/// U+0000 (libedit returns C strings), so the two cannot be confused. Keystrokes get
/// no terminator and expect no reply; they still pass through the Session, so they
/// are written in order with the typed lines.
public struct ConsoleDialect: Dialect {
    /// The device's dialect.
    public let base: any Dialect

    /// `base` with keystrokes.
    public init(base: any Dialect) {
        self.base = base
    }

    /// The command that writes `bytes` as they are.
    public static func keystrokes(_ bytes: [UInt8]) -> String {
        var text = "\u{0}"
        text.unicodeScalars.append(contentsOf: bytes.map { UnicodeScalar($0) })
        return text
    }

    /// The bytes of a keystroke command, or `nil` for a typed line.
    public static func bytes(ofKeystrokes command: String) -> [UInt8]? {
        guard command.unicodeScalars.first == "\u{0}" else { return nil }
        return command.unicodeScalars.dropFirst().map { UInt8(truncatingIfNeeded: $0.value) }
    }

    public var name: String { base.name }
    public var terminator: Terminator { base.terminator }

    public func encode(_ command: [UInt8]) -> [UInt8] {
        Self.bytes(ofKeystrokes: String(decoding: command, as: UTF8.self)) ?? base.encode(command)
    }

    public func expectsReply(to command: String) -> Bool {
        Self.bytes(ofKeystrokes: command) == nil && base.expectsReply(to: command)
    }

    public func makeMatcher(for command: String) -> any ReplyMatcher { base.makeMatcher(for: command) }

    public func isUnsolicited(_ line: Line, pending: String?) -> Bool { base.isUnsolicited(line, pending: pending) }

    // The base's session rules too: without them `connect` took a line begun before
    // the command (`qemux86 login: root`) for its reply, where `query` and `run` do not.
    public var repliesAreUnmarked: Bool { base.repliesAreUnmarked }

    public var settlesFromStart: Bool { base.settlesFromStart }

    public func leadingNoiseLength(in line: Line) -> Int { base.leadingNoiseLength(in: line) }

    public var payloadFraming: (any PayloadFraming)? { base.payloadFraming }

    public var blankLinesAreFraming: Bool { base.blankLinesAreFraming }
}
