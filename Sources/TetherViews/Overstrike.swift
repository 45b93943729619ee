/// What a terminal shows for a line's bytes once backspaces have moved the cursor back
/// over them (ECMA-48 BS: the cursor moves one character left, the next character
/// overwrites the one under it, nothing is erased).
///
/// U-Boot's autoboot countdown, `Hit any key to stop autoboot:  2 \x08\x08\x08 1 `, shows
/// as `Hit any key to stop autoboot:  1 `. A character is one UTF-8 scalar, or one byte
/// that is not valid UTF-8 (as ``ByteEscaping`` shows it); BS at the start of the line
/// does nothing. A carriage return never occurs inside a line: it ends one
/// (`LineFramer`), so a progress line redrawn after CR is one line per redraw. The text
/// view applies this before escaping; `--hex` and JSON keep the bytes as they came.
enum Overstrike {
    static let backspace: UInt8 = 0x08

    /// `bytes` as a terminal would leave them on one row; `bytes` itself when they hold
    /// no BS.
    static func applied(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(backspace) else { return bytes }
        var cells: [ArraySlice<UInt8>] = []
        var cursor = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == backspace {
                cursor = max(0, cursor - 1)
                index += 1
                continue
            }
            let length = ByteEscaping.decodeScalar(bytes, at: index).1
            let cell = bytes[index..<index + length]
            if cursor < cells.count { cells[cursor] = cell } else { cells.append(cell) }
            cursor += 1
            index += length
        }
        return Array(cells.joined())
    }
}
