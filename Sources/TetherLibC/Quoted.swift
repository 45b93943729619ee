/// A value the user gave (an option's value, a command, a script line, a file name),
/// as every error message quotes it: in single quotes, with control characters
/// escaped, and cut short when it is long, so a 100 000-byte argument makes a message
/// of a line, not of 100 KB.
///
/// `Quoted("9600x")` is `'9600x'`; a value longer than ``shownScalars`` Unicode scalars
/// shows its first ``shownScalars``, then `…` and its whole length in bytes:
/// `'xxxx…' (100000 bytes)`. Tab, CR and LF are shown as `\t`, `\r` and `\n`, every
/// other control character (C0, DEL, C1: ESC included, so a value cannot drive the
/// terminal) as its UTF-8 bytes `\xNN` (U+009B is `\xc2\x9b`, as `ByteEscaping` shows
/// device bytes); a backslash is kept as it is (the value as the user wrote it).
public struct Quoted: CustomStringConvertible, Sendable {
    /// The most of a value a message shows, in Unicode scalars (not characters: a
    /// value may be one character of 100 000 combining marks): enough for the paths
    /// people type (`/dev/serial/by-id/usb-Silicon_Labs_CP2102N_USB_to_UART_Bridge_Controller_0001-if00-port0`
    /// is 87), so a message cuts only what no one typed by hand.
    public static let shownScalars = 100

    /// The message's text for the value, in quotes: `'9600x'`, `'xxxx…' (100000 bytes)`.
    public let description: String
    /// The same without the quotes, for a message that names a file or port first
    /// (`xxxx… (100000 bytes): no such file`).
    public let bare: String

    /// `value` quoted for a message.
    public init(_ value: some StringProtocol) {
        self.init(shown: String(value), length: value.utf8.count)
    }

    /// `bytes` quoted for a message: as ``init(_:)`` quotes their text, each byte that
    /// is not part of valid UTF-8 shown as `\xNN` (an argument that is not UTF-8).
    public init(bytes: [UInt8]) {
        var text = ""
        var index = 0
        while index < bytes.count {
            var iterator = bytes[index...].makeIterator()
            var decoder = UTF8()
            if case .scalarValue(let scalar) = decoder.decode(&iterator) {
                text.unicodeScalars.append(scalar)
                index += String(scalar).utf8.count
            } else {
                // Its escape is plain text, so it is not escaped again below.
                text += "\\x" + Self.hex(bytes[index])
                index += 1
            }
        }
        self.init(shown: text, length: bytes.count)
    }

    private init(shown value: String, length: Int) {
        let scalars = value.unicodeScalars
        var shown = ""
        for scalar in scalars.prefix(Self.shownScalars) { shown += Self.escaped(scalar) }
        let isCut = !scalars.dropFirst(Self.shownScalars).isEmpty
        description = "'" + shown + (isCut ? "…' (\(length) bytes)" : "'")
        bare = shown + (isCut ? "… (\(length) bytes)" : "")
    }

    private static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x09: "\\t"
        case 0x0A: "\\n"
        case 0x0D: "\\r"
        case 0..<0x20, 0x7F...0x9F: String(scalar).utf8.map { "\\x" + hex($0) }.joined()
        default: String(scalar)
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
