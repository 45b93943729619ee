/// One NMEA 0183 sentence: `$` (or `!` for encapsulated data), a talker ID and a
/// sentence type (`GNGGA`: talker `GN`, type `GGA`) or a proprietary address (`P` then
/// the maker: `PUBX`, `PMTK001`), comma-separated fields, `*` and two hex digits: the
/// XOR of every byte between `$` and `*` (NMEA 0183 v4.11, §5.2).
public struct NMEASentence: Sendable, Equatable {
    /// Why a line that starts like a sentence is not a valid one.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The checksum sent is not the one computed.
        case badChecksum(sent: UInt8, computed: UInt8)
        /// No `*hh` at the end (or not two hex digits after `*`).
        case missingChecksum
        /// No address before the first comma (`$,1,2*hh`), or one that is not letters and digits.
        case badAddress

        public var description: String {
            switch self {
            case .badChecksum(let sent, let computed):
                "checksum \(NMEASentence.hex(sent)), computed \(NMEASentence.hex(computed))"
            case .missingChecksum: "no checksum (*hh)"
            case .badAddress: "no talker and sentence type"
            }
        }
    }

    /// The address as sent: `GNGGA`, `PUBX`, `PMTK001`.
    public var address: String
    /// The fields after the address, as sent (empty fields are `""`).
    public var fields: [String]

    /// Whether the sentence is proprietary (its address starts with `P`: `$PUBX`, `$PMTK`).
    public var isProprietary: Bool { address.hasPrefix("P") }
    /// The talker ID (`GN`, `GP`, `GL`…), or `nil` for a proprietary sentence.
    public var talker: String? { isProprietary ? nil : String(address.prefix(2)) }
    /// The sentence type (`GGA`, `RMC`…): the address after the talker; for a
    /// proprietary sentence, the whole address.
    public var type: String { isProprietary ? address : String(address.dropFirst(2)) }

    /// Reads `line`: `nil` when it does not start with `$` or `!` (not a sentence).
    public static func parse(_ line: Line) -> Result<NMEASentence, Problem>? {
        parse(line.bytes)
    }

    /// Reads the bytes of one line (no line end), as ``parse(_:)-(Line)`` does.
    public static func parse(_ bytes: [UInt8]) -> Result<NMEASentence, Problem>? {
        guard let first = bytes.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "!") else { return nil }
        var end = bytes.count
        while end > 1, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        guard end >= 4, bytes[end - 3] == UInt8(ascii: "*"), let high = bytes[end - 2].asciiHexDigitValue,
            let low = bytes[end - 1].asciiHexDigitValue
        else { return .failure(.missingChecksum) }
        let body = bytes[1..<(end - 3)]
        let computed = checksum(of: body)
        let sent = high << 4 | low
        guard sent == computed else { return .failure(.badChecksum(sent: sent, computed: computed)) }
        let parts = body.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        let address = parts[0]
        guard !address.isEmpty, address.utf8.allSatisfy({ isLetterOrDigit($0) }) else { return .failure(.badAddress) }
        return .success(NMEASentence(address: address, fields: Array(parts.dropFirst())))
    }

    /// The NMEA checksum of `body` (the bytes between `$` and `*`): their XOR.
    public static func checksum(of body: some Sequence<UInt8>) -> UInt8 {
        body.reduce(0, ^)
    }

    /// `command` with its checksum added: a `$` or `!` sentence without `*` gets `*hh`
    /// (`$PMTK220,1000` → `$PMTK220,1000*1F`); anything else is unchanged.
    public static func addingChecksum(to command: [UInt8]) -> [UInt8] {
        guard let first = command.first, first == UInt8(ascii: "$") || first == UInt8(ascii: "!"),
            !command.contains(UInt8(ascii: "*"))
        else { return command }
        return command + Array(("*" + hex(checksum(of: command.dropFirst()))).utf8)
    }

    /// Two upper-case hex digits.
    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
