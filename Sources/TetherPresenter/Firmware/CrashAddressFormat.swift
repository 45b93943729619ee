/// A crash report's format: where its code addresses are in a line, for `--elf`
/// (docs/FIRMWARE.md, "Crash formats"). The built-in table, ``builtIn``, holds ESP-IDF's
/// backtraces and register dumps, Zephyr's fatal errors and Cortex-M fault dumps.
public struct CrashAddressFormat: Sendable, Hashable {
    /// How a format's addresses are written.
    public enum Shape: Sendable, Hashable {
        /// After `marker`, pairs `0xPC:0xSP` apart by spaces (ESP-IDF's
        /// `Backtrace: 0x400d1234:0x3ffb1f60 0x400d5678:0x3ffb1f80`): each pair's first.
        case backtrace(marker: String)
        /// A register field: one of the names (any case, at a word's start), then `:`
        /// or `=` (spaces around it allowed), then `0x` and hexadecimal digits
        /// (`PC      : 0x400d1234`, `r14/lr:  0x0000a1b1`, `PC = 0x08001234`).
        case fields([String])
    }

    /// The format's name, for docs and tests.
    public var name: String
    /// Where its addresses are.
    public var shape: Shape

    /// Creates a format.
    public init(name: String, shape: Shape) {
        self.name = name
        self.shape = shape
    }

    /// ESP-IDF's backtrace and register dump (Xtensa and RISC-V), Zephyr's fatal error
    /// (ARM and RISC-V), Cortex-M fault handlers' `PC`/`LR` fields.
    public static let builtIn: [CrashAddressFormat] = [
        CrashAddressFormat(name: "esp-idf-backtrace", shape: .backtrace(marker: "Backtrace:")),
        CrashAddressFormat(name: "esp-idf-registers", shape: .fields(["PC", "MEPC", "RA"])),
        CrashAddressFormat(
            name: "zephyr-fatal", shape: .fields(["Faulting instruction address (r15/pc)", "r14/lr", "mepc", "ra"])),
        CrashAddressFormat(name: "cortex-m", shape: .fields(["Stacked PC", "Stacked LR", "PC", "LR"])),
    ]

    /// The addresses of `formats` in `bytes` (a line's), in order of position, each
    /// once, with the field it was in: `backtrace`, or a register field's name as the
    /// line writes it.
    public static func addresses(in bytes: [UInt8], formats: [CrashAddressFormat] = builtIn) -> [(
        field: String, address: UInt64
    )] {
        guard
            bytes.indices.dropLast().contains(where: {
                bytes[$0] == UInt8(ascii: "0") && bytes[$0 + 1] | 0x20 == UInt8(ascii: "x")
            })
        else { return [] }
        var found: [(position: Int, field: String, address: UInt64)] = []
        var labels: [String] = []
        for format in formats {
            switch format.shape {
            case .backtrace(let marker):
                found += backtrace(after: Array(marker.utf8), in: bytes).map { ($0.position, "backtrace", $0.address) }
            case .fields(let names):
                labels += names.filter { name in !labels.contains { $0.lowercased() == name.lowercased() } }
            }
        }
        found += fields(labels.sorted { $0.count > $1.count }, in: bytes)
        var seen = Set<Int>()
        return found.sorted { $0.position < $1.position }.filter { seen.insert($0.position).inserted }.map {
            ($0.field, $0.address)
        }
    }

    /// The first address of each `0x…:0x…` pair after `marker`.
    private static func backtrace(after marker: [UInt8], in bytes: [UInt8]) -> [(position: Int, address: UInt64)] {
        guard let start = firstIndex(of: marker, in: bytes, from: 0) else { return [] }
        var index = start + marker.count
        var found: [(Int, UInt64)] = []
        while index < bytes.count {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
            guard let (pc, afterPC) = hexNumber(in: bytes, at: index), afterPC < bytes.count,
                bytes[afterPC] == UInt8(ascii: ":"), let (_, afterSP) = hexNumber(in: bytes, at: afterPC + 1)
            else { break }
            found.append((index, pc))
            index = afterSP
        }
        return found
    }

    /// The values of the register fields named `labels` (longest first).
    private static func fields(_ labels: [String], in bytes: [UInt8]) -> [(
        position: Int, field: String, address: UInt64
    )] {
        guard !labels.isEmpty else { return [] }
        let lowered = bytes.map(lowercase)
        let names = labels.map { Array($0.utf8).map(lowercase) }
        var found: [(Int, String, UInt64)] = []
        var index = 0
        scan: while index < bytes.count {
            if index == 0 || !isWordByte(bytes[index - 1]) {
                for name in names where hasPrefix(name, in: lowered, at: index) {
                    var cursor = index + name.count
                    while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
                    guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ":") || bytes[cursor] == UInt8(ascii: "=")
                    else { continue }
                    cursor += 1
                    while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
                    guard let (address, end) = hexNumber(in: bytes, at: cursor) else { continue }
                    found.append((cursor, String(decoding: bytes[index..<index + name.count], as: UTF8.self), address))
                    index = end
                    continue scan
                }
            }
            index += 1
        }
        return found
    }

    /// `0x` and 1–16 hexadecimal digits at `index`: the value and the index after it.
    private static func hexNumber(in bytes: [UInt8], at index: Int) -> (UInt64, Int)? {
        guard index + 2 < bytes.count, bytes[index] == UInt8(ascii: "0"),
            lowercase(bytes[index + 1]) == UInt8(ascii: "x")
        else { return nil }
        var value: UInt64 = 0
        var cursor = index + 2
        while cursor < bytes.count, let digit = hexDigit(bytes[cursor]) {
            guard cursor - index - 2 < 16 else { return nil }
            value = value << 4 | UInt64(digit)
            cursor += 1
        }
        guard cursor > index + 2, cursor == bytes.count || !isWordByte(bytes[cursor]) else { return nil }
        return (value, cursor)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        let lower = lowercase(byte)
        return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lower)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "_")
    }

    private static func hasPrefix(_ prefix: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
        guard index + prefix.count <= bytes.count else { return false }
        for offset in prefix.indices where bytes[index + offset] != prefix[offset] { return false }
        return true
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        return (start...(bytes.count - needle.count)).first { hasPrefix(needle, in: bytes, at: $0) }
    }
}
