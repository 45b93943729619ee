import TetherViews

/// Makes received bytes safe to write raw to the user's terminal in raw mode, where a
/// device's own line editing must keep working (picocom and tio pass everything).
///
/// Passed as they are: printable ASCII, bytes ≥ 0x80 (UTF-8 text), CR, LF, tab,
/// backspace, bell, and CSI sequences (`ESC [` parameters, then a final byte 0x40–0x7E:
/// cursor movement, erase, colour). Everything else a device could use to drive the
/// terminal — other C0 controls, DEL, a lone ESC or any other escape sequence (OSC
/// title or clipboard, DCS) — is shown escaped, `\x1b`. A CSI sequence split across
/// two reads is still recognised.
struct PassthroughFilter {
    private enum State {
        case text
        case escape
        case controlSequence([UInt8])
    }

    private var state = State.text
    /// Prefixes each line with a timestamp when set; `nil`: none.
    var timestamp: (() -> String)?
    /// Shows a lone CR as a line end (CR LF), for devices that end lines with CR only;
    /// a CR LF stays one line end.
    var endsLinesAtCR = false
    private var isAtLineStart = true
    private var followsMappedCR = false

    /// A filter at the start of a line.
    init() {}

    /// The bytes to write for `bytes`, continuing from the previous call.
    mutating func filter(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        for byte in bytes {
            if isAtLineStart, let timestamp, byte != 0x0A {
                output += Array((timestamp() + " ").utf8)
                isAtLineStart = false
            }
            let followsCR = followsMappedCR
            followsMappedCR = false
            switch state {
            case .text:
                switch byte {
                case 0x1B: state = .escape
                case 0x0A where followsCR:
                    continue  // the LF of a CR LF already shown as a line end
                case 0x0D where endsLinesAtCR:
                    output += [0x0D, 0x0A]
                    isAtLineStart = true
                    followsMappedCR = true
                case 0x0A:
                    output.append(byte)
                    isAtLineStart = true
                case 0x20..<0x7F, 0x80..., 0x0D, 0x09, 0x08, 0x07: output.append(byte)
                default: output += Array(ByteEscaping.escaped([byte]).utf8)
                }
            case .escape:
                if byte == 0x5B {
                    state = .controlSequence([0x1B, 0x5B])
                } else {
                    output += Array("\\x1b".utf8)
                    state = .text
                    output += filter([byte])
                }
            case .controlSequence(var sequence):
                sequence.append(byte)
                if (0x40...0x7E).contains(byte) {
                    output += sequence
                    state = .text
                } else if (0x20...0x3F).contains(byte) && sequence.count < 32 {
                    state = .controlSequence(sequence)
                } else {
                    state = .text
                    output += Array(ByteEscaping.escaped(Array(sequence.dropLast())).utf8)
                    output += filter([byte])
                }
            }
        }
        return output
    }
}
