/// The `nmea` dialect: GPS/GNSS receivers speaking NMEA 0183 (v4.11; 4800 or 9600 baud).
///
/// - Every received sentence's checksum is verified (``NMEASentence``): a sentence with a
///   wrong or missing checksum is reported as invalid (``fields(of:)``), never as data.
/// - GGA, RMC, GSA, GSV, VTG and GLL of any talker (`GP`, `GN`, `GL`, `GA`, `BD`…) give
///   their fields as named values with units (``NMEASentence/values``); proprietary
///   sentences (`$PUBX`, `$PMTK`) and the others are passed through as they are.
/// - Commands end in CR LF; a command that starts with `$` or `!` and has no `*` gets
///   its checksum (`$PMTK220,1000` goes out as `$PMTK220,1000*1F`).
/// - Replies: a `$PMTKnnn` command's reply is its acknowledgement `$PMTK001,nnn,<flag>`
///   (an error unless the flag is 3, "valid packet, action succeeded") or the answer
///   `$PMTK<nnn+100>,…` of a query (`$PMTK605` → `$PMTK705,…`); a u-blox poll
///   `$PUBX,<id>` gets `$PUBX,<id>,…`. Other commands get no reply. Every sentence no
///   reply takes is a notification.
/// - Line noise: bytes that are not printable ASCII before a `$` or `!` (a receiver
///   waking up) are a notification of their own; the sentence is read.
public struct NMEADialect: Dialect {
    /// The terminator written after each command (CR LF by NMEA 0183).
    public var terminator: Terminator
    /// Lines that are always notifications, or `nil`.
    public var notificationPattern: LinePattern?

    /// Creates the dialect.
    public init(terminator: Terminator = .crlf, notificationPattern: LinePattern? = nil) {
        self.terminator = terminator
        self.notificationPattern = notificationPattern
    }

    public var name: String { Self.kind.name }

    public func encode(_ command: [UInt8]) -> [UInt8] {
        NMEASentence.addingChecksum(to: command) + terminator.bytes
    }

    public func expectsReply(to command: String) -> Bool { Expected(command) != nil }

    public func makeMatcher(for command: String) -> any ReplyMatcher {
        Matcher(expected: Expected(command))
    }

    public func isUnsolicited(_ line: Line, pending: String?) -> Bool {
        notificationPattern?.matches(line) ?? false
    }

    public func leadingNoiseLength(in line: Line) -> Int {
        guard let start = line.bytes.firstIndex(where: { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "!") }),
            line.bytes[..<start].allSatisfy({ $0 < 0x20 || $0 >= 0x7F })
        else { return 0 }
        return start
    }

    public func fields(of line: Line) -> LineFields? {
        switch NMEASentence.parse(line) {
        case nil: nil
        case .failure(let problem)?: .invalid(reason: problem.description)
        case .success(let sentence)?: .values(sentence.values)
        }
    }

    /// The reply a command waits for.
    private struct Expected: Sendable {
        /// Addresses that answer it (`PMTK001` with the command's number as first field,
        /// or the query's answer `PMTK705`; `PUBX` with the poll's id).
        var acknowledgement: String?
        var answer: String
        var firstField: String?

        init?(_ command: String) {
            guard command.hasPrefix("$") else { return nil }
            let body = command.dropFirst().prefix { $0 != "*" }
            let parts = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let address = parts[0].uppercased()
            if address.hasPrefix("PMTK"), let number = Int(address.dropFirst(4)) {
                acknowledgement = String(number)
                answer = "PMTK" + String(number + 100)
                firstField = nil
            } else if address == "PUBX", parts.count == 2 {
                acknowledgement = nil
                answer = "PUBX"
                firstField = parts[1]
            } else {
                return nil
            }
        }
    }

    private struct Matcher: ReplyMatcher {
        let expected: Expected?
        var hasStarted: Bool { false }

        mutating func offer(_ line: Line) -> MatchStep {
            guard let expected, case .success(let sentence)? = NMEASentence.parse(line) else { return .notMine }
            if let number = expected.acknowledgement, sentence.address == "PMTK001", sentence.fields.first == number {
                let flag = sentence.fields.count > 1 ? sentence.fields[1] : ""
                return .complete(
                    Reply(
                        lines: [line], isError: flag != "3",
                        errorDescription: flag == "3" ? nil : Self.acknowledgementMeanings[flag]))
            }
            guard sentence.address == expected.answer,
                expected.firstField.map({ sentence.fields.first == $0 }) ?? true
            else { return .notMine }
            return .complete(Reply(lines: [line]))
        }

        /// `$PMTK001`'s flags other than 3 (MediaTek PMTK command packet).
        static let acknowledgementMeanings = [
            "0": "invalid packet", "1": "unsupported packet type", "2": "valid packet, but action failed",
        ]
    }
}

extension NMEADialect {
    /// `--dialect nmea` (GPS receivers: NMEA 0183 sentences), for ``DialectRegistry/builtIn``.
    public static let kind = DialectKind(
        name: "nmea", summary: "GPS receivers: NMEA 0183 sentences",
        takes: [.terminator, .notificationPattern]
    ) { settings in
        NMEADialect(terminator: settings.terminator ?? .crlf, notificationPattern: settings.notificationPattern)
    }
}
