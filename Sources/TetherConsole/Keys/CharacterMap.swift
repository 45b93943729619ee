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
        guard flags.contains(where: { $0.rawValue.hasPrefix("I") }) else { return bytes }
        var shown: [UInt8] = []
        shown.reserveCapacity(bytes.count)
        for byte in bytes {
            switch byte {
            case 0x0D where flags.contains(.igncr): continue
            case 0x0D where flags.contains(.icrnl): shown.append(0x0A)
            case 0x0A where flags.contains(.inlcr): shown.append(0x0D)
            case 0x0A where flags.contains(.inlcrnl): shown += [0x0D, 0x0A]
            default: shown.append(byte)
            }
        }
        return shown
    }

    /// The typed `bytes` as they are sent.
    public func typed(_ bytes: [UInt8]) -> [UInt8] {
        guard flags.contains(where: { $0.rawValue.hasPrefix("O") }) else { return bytes }
        var sent: [UInt8] = []
        sent.reserveCapacity(bytes.count)
        for byte in bytes {
            switch byte {
            case 0x0D where flags.contains(.oigncr): continue
            case 0x0D where flags.contains(.ocrnl): sent.append(0x0A)
            case 0x0A where flags.contains(.onlcrnl): sent += [0x0D, 0x0A]
            case 0x7F where flags.contains(.odelbs): sent.append(0x08)
            case UInt8(ascii: "a")...UInt8(ascii: "z") where flags.contains(.oltu): sent.append(byte - 0x20)
            default: sent.append(byte)
            }
        }
        return sent
    }
}
