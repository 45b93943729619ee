/// What a terminal's row shows once a received line's edits are applied (ECMA-48 /
/// ISO 6429, as xterm and VT100 do them): the line as a person at a terminal reads it,
/// for the lines with escape sequences (``ControlSequences/cleaned(_:)``).
///
/// Applied: BS (cursor one left), CR (cursor to the start: never inside a terminated
/// line, ``LineFramer`` ends a line there), CUB `ESC[nD` and CUF `ESC[nC` (cursor n left
/// or right), CHA `ESC[nG` (to column n), EL `ESC[K` / `ESC[1K` / `ESC[2K` (erase to the
/// end, to the cursor, the whole row), ED `ESC[J` / `ESC[1J` / `ESC[2J` (the same on the
/// one row), DCH `ESC[nP` (delete n characters, the rest moves left). A character
/// overwrites the one under the cursor. Every other sequence is removed (colours, modes,
/// OSC strings…). A character is one UTF-8 scalar, or one byte that is not valid UTF-8;
/// each takes one column (East Asian wide characters take two on a terminal, here one).
/// Erased cells before a later character read as spaces; erased cells at the end are
/// left out, so `prompt ESC[9D ESC[J log` reads `log`.
enum TerminalRow {
    private static let escape: UInt8 = 0x1B

    /// `bytes` as the row shows them.
    static func rendered(_ bytes: [UInt8]) -> [UInt8] {
        var cells: [ArraySlice<UInt8>?] = []
        var cursor = 0
        var index = 0
        func write(_ cell: ArraySlice<UInt8>) {
            while cells.count < cursor { cells.append(nil) }
            if cursor < cells.count { cells[cursor] = cell } else { cells.append(cell) }
            cursor += 1
        }
        while index < bytes.count {
            switch bytes[index] {
            case 0x08:
                cursor = max(0, cursor - 1)
                index += 1
            case 0x0D:
                cursor = 0
                index += 1
            case escape:
                let end = ControlSequences.end(ofSequenceAt: index, in: bytes)
                if let (parameter, final) = csi(bytes[index..<end]) {
                    apply(final, parameter, cells: &cells, cursor: &cursor)
                }
                index = end
            default:
                let length = scalarLength(bytes, at: index)
                write(bytes[index..<index + length])
                index += length
            }
        }
        while let last = cells.last, last == nil { cells.removeLast() }
        return cells.flatMap { $0.map(Array.init) ?? [0x20] }
    }

    /// A CSI sequence's first numeric parameter (`nil` when absent) and final byte; `nil`
    /// for another sequence, or a CSI with private or intermediate bytes (`ESC[?25l`).
    private static func csi(_ sequence: ArraySlice<UInt8>) -> (Int?, UInt8)? {
        guard sequence.count >= 3, sequence[sequence.startIndex + 1] == UInt8(ascii: "["),
            let final = sequence.last, (0x40...0x7E).contains(final)
        else { return nil }
        let parameters = sequence.dropFirst(2).dropLast()
        guard parameters.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ";") })
        else { return nil }
        let first = parameters.prefix { $0 != UInt8(ascii: ";") }
        return (first.isEmpty ? nil : Int(String(decoding: first, as: UTF8.self)), final)
    }

    private static func apply(
        _ final: UInt8, _ parameter: Int?, cells: inout [ArraySlice<UInt8>?], cursor: inout Int
    ) {
        let count = max(1, parameter ?? 1)
        switch final {
        case UInt8(ascii: "D"): cursor = max(0, cursor - count)
        case UInt8(ascii: "C"): cursor += count
        case UInt8(ascii: "G"): cursor = count - 1
        case UInt8(ascii: "K"), UInt8(ascii: "J"):
            switch parameter ?? 0 {
            case 0: if cursor < cells.count { cells.removeSubrange(cursor...) }
            case 1: for column in 0..<min(cursor + 1, cells.count) { cells[column] = nil }
            default: cells.removeAll()
            }
        case UInt8(ascii: "P"):
            if cursor < cells.count { cells.removeSubrange(cursor..<min(cells.count, cursor + count)) }
        default: break
        }
    }

    /// The length of the UTF-8 scalar at `index`, or 1 for a byte that does not begin one.
    private static func scalarLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length =
            switch lead {
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 1
            }
        guard length > 1, index + length <= bytes.count else { return 1 }
        let scalar = bytes[index..<index + length]
        return String(validating: scalar, as: UTF8.self) == nil ? 1 : length
    }
}
