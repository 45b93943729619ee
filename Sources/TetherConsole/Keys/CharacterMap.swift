import TetherCommandLine
import TetherModel

/// `connect --map FLAGS`: tio's character mappings, each a flag named as tio names it
/// (`--map ICRNL,ONLCRNL`). `I…` flags change the bytes received before the screen
/// shows them in raw mode; `O…` flags change what is typed before it is sent (raw
/// mode's keys, line mode's lines before their line end). Logs keep the bytes as the
/// device sent them, and Ctrl-T w, f and the transfers send exactly their bytes.
public struct CharacterMap: Sendable, Equatable {
    /// One mapping.
    public enum Flag: String, CaseIterable, Sendable {
        /// Received CR shown as NL.
        case icrnl = "ICRNL"
        /// Received CR dropped.
        case igncr = "IGNCR"
        /// Received NL shown as CR.
        case inlcr = "INLCR"
        /// Received NL shown as CR NL.
        case inlcrnl = "INLCRNL"
        /// Typed CR sent as NL.
        case ocrnl = "OCRNL"
        /// Typed NL sent as CR NL.
        case onlcrnl = "ONLCRNL"
        /// Typed CR not sent.
        case oigncr = "OIGNCR"
        /// Typed DEL (0x7F, the Backspace key of most terminals) sent as BS (0x08).
        case odelbs = "ODELBS"
        /// Typed lowercase letters (a–z) sent as uppercase.
        case oltu = "OLTU"

        /// What it does, for `--help`.
        var summary: String {
            switch self {
            case .icrnl: "received CR shown as NL"
            case .igncr: "received CR dropped"
            case .inlcr: "received NL shown as CR"
            case .inlcrnl: "received NL shown as CR NL"
            case .ocrnl: "typed CR sent as NL"
            case .onlcrnl: "typed NL sent as CR NL"
            case .oigncr: "typed CR not sent"
            case .odelbs: "typed DEL sent as BS"
            case .oltu: "typed a-z sent as A-Z"
            }
        }
    }

    /// The flags in force.
    public var flags: Set<Flag>

    /// A map with `flags`; none by default, which changes nothing.
    public init(_ flags: Set<Flag> = []) {
        self.flags = flags
    }

    /// Parses `--map`'s value: flag names separated by commas, in any case.
    ///
    /// - Throws: ``InvalidValue`` naming the flags there are, for an unknown one.
    public init(parsing text: String) throws(InvalidValue) {
        var flags: Set<Flag> = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let flag = Flag(rawValue: name.trimmingWhitespace().uppercased()) else {
                throw InvalidValue(
                    "Please provide flags separated by commas from "
                        + Flag.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ") + ".")
            }
            flags.insert(flag)
        }
        self.init(flags)
    }

    /// `--help`'s list of the flags, one a line.
    static var help: String {
        Flag.allCases.map { $0.rawValue + String(repeating: " ", count: 9 - $0.rawValue.count) + $0.summary }
            .joined(separator: "\n")
    }

    /// The received `bytes` as the screen shows them.
    public func received(_ bytes: [UInt8]) -> [UInt8] {
        mapping(bytes, prefix: "I") { byte, flags in
            switch byte {
            case 0x0D where flags.contains(.igncr): []
            case 0x0D where flags.contains(.icrnl): [0x0A]
            case 0x0A where flags.contains(.inlcr): [0x0D]
            case 0x0A where flags.contains(.inlcrnl): [0x0D, 0x0A]
            default: nil
            }
        }
    }

    /// The typed `bytes` as they are sent.
    public func typed(_ bytes: [UInt8]) -> [UInt8] {
        mapping(bytes, prefix: "O") { byte, flags in
            switch byte {
            case 0x0D where flags.contains(.oigncr): []
            case 0x0D where flags.contains(.ocrnl): [0x0A]
            case 0x0A where flags.contains(.onlcrnl): [0x0D, 0x0A]
            case 0x7F where flags.contains(.odelbs): [0x08]
            case UInt8(ascii: "a")...UInt8(ascii: "z") where flags.contains(.oltu): [byte - 0x20]
            default: nil
            }
        }
    }

    /// `bytes` with each byte `replacement` maps replaced (`nil`: kept); `bytes` as
    /// they are when no flag of the direction (`I` or `O`) is in force.
    private func mapping(
        _ bytes: [UInt8], prefix: String, _ replacement: (UInt8, Set<Flag>) -> [UInt8]?
    ) -> [UInt8] {
        guard flags.contains(where: { $0.rawValue.hasPrefix(prefix) }) else { return bytes }
        var mapped: [UInt8] = []
        mapped.reserveCapacity(bytes.count)
        for byte in bytes {
            if let bytes = replacement(byte, flags) { mapped += bytes } else { mapped.append(byte) }
        }
        return mapped
    }
}
