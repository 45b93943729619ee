import Glibc

/// Removes terminal control sequences (ECMA-48 / ISO 6429, as xterm and VT100 emit
/// them) from a received line, so shells that colour their output or wrap it in
/// bracketed-paste mode read as plain text.
///
/// Removed, whole: CSI sequences (`ESC [` parameters, intermediates, a final byte —
/// `\u{1B}[1;31m`, `\u{1B}[?2004h`); OSC, DCS, SOS, PM and APC strings (`ESC ]`, `ESC P`,
/// `ESC X`, `ESC ^`, `ESC _` up to BEL or `ESC \`); other escape sequences
/// (`ESC` intermediates and a final byte: `ESC (B`, `ESC =`, `ESC 7`). A sequence cut by
/// the end of the line is removed up to there. In a line that ended, the edits among
/// them are applied (`TerminalRow`). Nothing else changes: a lone CR is a line
/// terminator (``LineFramer``), and in a line without escape sequences other control
/// bytes (NUL, BEL, BS, 0x11/0x13) are kept and shown escaped by the views (the text
/// view applies BS, `Overstrike`).
public enum ControlSequences {
    private static let escape: UInt8 = 0x1B

    /// `line` with control sequences removed from ``Line/bytes``; the bytes as received
    /// are kept in ``Line/exactBytes`` when anything was removed. A line that ended (by
    /// a line end, or cut as overlong) has its edits applied as a terminal's row shows
    /// them (`TerminalRow`: cursor moves, erases, backspaces), so a shell's prompt
    /// erased before a log line (Zephyr's `ESC[9D ESC[J`) is gone from it; text without
    /// a line end yet (a prompt, pending text) only has the sequences removed, so its
    /// bytes stay a prefix of what comes. A line with a payload (``Line/payloadRange``)
    /// is returned as it is: its bytes are data, not text.
    public static func cleaned(_ line: Line) -> Line {
        guard line.payloadRange == nil, containsEscape(line.bytes) else { return line }
        let text = line.ending == .unterminated ? removed(from: line.bytes) : TerminalRow.rendered(line.bytes)
        var cleaned = Line(text, ending: line.ending, terminator: line.terminator)
        cleaned.exactBytes = line.receivedBytes
        return cleaned
    }

    /// `bytes` without the control sequences in them.
    public static func removed(from bytes: [UInt8]) -> [UInt8] {
        guard containsEscape(bytes) else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard bytes[index] == escape else {
                result.append(bytes[index])
                index += 1
                continue
            }
            index = end(ofSequenceAt: index, in: bytes)
        }
        return result
    }

    /// Whether `bytes` hold an ESC: a line without one is returned as it is, and a fast
    /// stream's every line is looked at.
    private static func containsEscape(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { bytes in
            guard let start = bytes.baseAddress else { return false }
            return memchr(start, Int32(escape), bytes.count) != nil
        }
    }

    /// How many bytes of `bytes` hold the first `count` bytes of
    /// ``removed(from:)``'s result, the control sequences among them: the length of the
    /// shortest such prefix (a sequence right after them is not included); `nil` when
    /// the result is shorter than `count`.
    public static func length(ofPrefixKeeping count: Int, in bytes: [UInt8]) -> Int? {
        var kept = 0
        var index = bytes.startIndex
        while kept < count, index < bytes.endIndex {
            if bytes[index] == escape {
                index = end(ofSequenceAt: index, in: bytes)
            } else {
                kept += 1
                index += 1
            }
        }
        return kept == count ? index : nil
    }

    /// The index after the escape sequence that starts at `start` (an ESC).
    static func end(ofSequenceAt start: Int, in bytes: [UInt8]) -> Int {
        var index = start + 1
        guard index < bytes.endIndex else { return index }
        switch bytes[index] {
        case UInt8(ascii: "["):
            index += 1
            while index < bytes.endIndex, (0x20...0x3F).contains(bytes[index]) { index += 1 }
            return index < bytes.endIndex && (0x40...0x7E).contains(bytes[index]) ? index + 1 : index
        case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"):
            index += 1
            while index < bytes.endIndex {
                if bytes[index] == 0x07 { return index + 1 }
                if bytes[index] == escape {
                    return index + 1 < bytes.endIndex && bytes[index + 1] == UInt8(ascii: "\\") ? index + 2 : index
                }
                index += 1
            }
            return index
        default:
            while index < bytes.endIndex, (0x20...0x2F).contains(bytes[index]) { index += 1 }
            return index < bytes.endIndex && (0x30...0x7E).contains(bytes[index]) ? index + 1 : index
        }
    }
}
