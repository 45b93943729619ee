import TetherViews

/// Makes received bytes safe to write raw to the user's terminal in raw mode: what a
/// console needs passes (a device's line editing, colour, a full-screen program such as
/// `vi` or `top`), nothing that makes the terminal answer the device, change the user's
/// terminal beyond the session, or reach outside it.
///
/// Passed as they are:
/// - printable ASCII and UTF-8 text; CR, LF, tab, backspace and BEL (a shell's
///   completion bell);
/// - CSI sequences (`ESC [` parameters `0-9 ; :`, then a final byte) of SGR (`m`:
///   colour, bold…), cursor movement (`A B C D E F G H f d e a` and `` ` ``), erase and
///   editing (`J K X P @ L M`), scrolling (`S T`) and the scroll region (`r`), tabs
///   (`I Z`), insert mode (`4 h`, `4 l`), and the DEC private modes of
///   ``DeviceTerminalModes/privateModes`` (`ESC [ ? 25 l`, `ESC [ ? 1049 h`…);
/// - `ESC 7`, `ESC 8` (save and restore the cursor), `ESC M`, `ESC D`, `ESC E` (index,
///   reverse index, next line), `ESC =`, `ESC >` (keypad), `ESC ( 0`, `ESC ( B`
///   (line drawing and back).
///
/// Shown escaped (`\x1b[6n`) instead: every other escape sequence — among them the
/// queries a terminal answers by typing to the device (cursor position `ESC [ 6 n`,
/// device attributes `ESC [ c`, `ESC [ > c`, window reports `ESC [ 21 t`, mode reports
/// `ESC [ ? 1 $ p`), printer mode (`ESC [ 5 i`), OSC strings (title, clipboard), DCS,
/// full reset (`ESC c`), key modifiers (`ESC [ > 4 ; 1 m`); other C0 controls and DEL;
/// C1 controls, raw (0x80–0x9F outside UTF-8) or as UTF-8 (U+0080–U+009F, `c2 9b`, which a
/// UTF-8 terminal takes as CSI); bytes that cannot start or continue UTF-8. A sequence
/// split across reads is still recognised.
///
/// What the passed sequences changed is kept in ``modes``, so `connect` can undo it
/// when it ends (``DeviceTerminalModes/undo``).
struct PassthroughFilter {
    private enum State {
        case text
        case escape([UInt8])
        case controlSequence([UInt8])
    }

    private var state = State.text
    /// UTF-8 continuation bytes still expected after the last lead byte.
    private var continuations = 0
    /// A `c2` lead byte held until the next byte says whether it starts a C1 control.
    private var heldLead = false
    /// What the device changed through the sequences passed.
    private(set) var modes = DeviceTerminalModes()
    /// Prefixes each line with a timestamp when set; `nil`: none.
    var timestamp: (() -> String)?
    /// Shows a lone CR as a line end (CR LF), for devices that end lines with CR only;
    /// a CR LF stays one line end.
    var endsLinesAtCR = false
    private var isAtLineStart = true
    private var followsMappedCR = false

    /// The longest CSI sequence recognised, in bytes.
    static let longestSequence = 32

    /// A filter at the start of a line.
    init() {}

    /// The undo of what the device changed (``DeviceTerminalModes/undo``), which is then
    /// nothing: for a switch to line mode, which shows no device sequence.
    mutating func takeUndo() -> [UInt8] {
        defer { modes = DeviceTerminalModes() }
        return modes.undo
    }

    /// The bytes to write for `bytes`, continuing from the previous call.
    mutating func filter(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        for byte in bytes { feed(byte, into: &output) }
        return output
    }

    private mutating func feed(_ byte: UInt8, into output: inout [UInt8]) {
        if isAtLineStart, let timestamp, byte != 0x0A {
            output += Array((timestamp() + " ").utf8)
            isAtLineStart = false
        }
        let followsCR = followsMappedCR
        followsMappedCR = false
        switch state {
        case .text:
            text(byte, followsCR: followsCR, into: &output)
        case .escape(var sequence):
            sequence.append(byte)
            if sequence == [0x1B, 0x5B] {
                state = .controlSequence(sequence)
            } else if sequence == [0x1B, 0x28] {
                state = .escape(sequence)  // ESC ( takes one more byte
            } else {
                state = .text
                let passed = Self.passedEscapes.contains(Array(sequence.dropFirst()))
                if passed {
                    modes.pass(escape: Array(sequence.dropFirst()))
                    output += sequence
                } else {
                    output += Array("\\x1b".utf8)
                    for byte in sequence.dropFirst() { text(byte, followsCR: false, into: &output) }
                }
            }
        case .controlSequence(var sequence):
            sequence.append(byte)
            if (0x40...0x7E).contains(byte) {
                state = .text
                let parameters = Array(sequence.dropFirst(2).dropLast())
                if Self.passes(parameters: parameters, final: byte) {
                    modes.pass(parameters: parameters, final: byte)
                    output += sequence
                } else {
                    output += Array(ByteEscaping.escaped(sequence).utf8)
                }
            } else if (0x20...0x3F).contains(byte) && sequence.count < Self.longestSequence {
                state = .controlSequence(sequence)
            } else {
                state = .text
                output += Array(ByteEscaping.escaped(Array(sequence.dropLast())).utf8)
                text(byte, followsCR: false, into: &output)
            }
        }
    }

    /// A byte outside an escape sequence.
    private mutating func text(_ byte: UInt8, followsCR: Bool, into output: inout [UInt8]) {
        if heldLead {
            heldLead = false
            if (0x80...0x9F).contains(byte) {  // U+0080–U+009F: a C1 control
                continuations = 0
                output += Array("\\xc2".utf8) + Array(ByteEscaping.escaped([byte]).utf8)
                return
            }
            output.append(0xC2)
        }
        if continuations > 0 {
            if (0x80...0xBF).contains(byte) {
                continuations -= 1
                output.append(byte)
                return
            }
            continuations = 0  // a sequence cut short: the terminal shows U+FFFD
        }
        switch byte {
        case 0x1B: state = .escape([0x1B])
        case 0x0A where followsCR:
            break  // the LF of a CR LF already shown as a line end
        case 0x0D where endsLinesAtCR:
            output += [0x0D, 0x0A]
            isAtLineStart = true
            followsMappedCR = true
        case 0x0A:
            output.append(byte)
            isAtLineStart = true
        case 0x20..<0x7F, 0x0D, 0x09, 0x08, 0x07: output.append(byte)
        case 0xC2:
            heldLead = true
            continuations = 1
        case 0xC3...0xDF:
            output.append(byte)
            continuations = 1
        case 0xE0...0xEF:
            output.append(byte)
            continuations = 2
        case 0xF0...0xF4:
            output.append(byte)
            continuations = 3
        default: output += Array(ByteEscaping.escaped([byte]).utf8)
        }
    }

    /// The escape sequences other than CSI passed: `ESC` then these bytes.
    private static let passedEscapes: Set<[UInt8]> = [
        [0x37], [0x38], [0x4D], [0x44], [0x45], [0x3D], [0x3E], [0x28, 0x30], [0x28, 0x42],
    ]
    /// The final bytes of the CSI sequences passed without `?`.
    private static let passedFinals = Set("mABCDEFGHfdea`JKXPLMSTrIZ@".utf8)

    /// Whether a CSI sequence with these `parameters` (the bytes between `ESC [` and the
    /// final byte) and `final` byte passes.
    static func passes(parameters: [UInt8], final: UInt8) -> Bool {
        let isPrivate = parameters.first == UInt8(ascii: "?")
        let numbers = isPrivate ? Array(parameters.dropFirst()) : parameters
        guard numbers.allSatisfy({ (0x30...0x3B).contains($0) }) else { return false }  // digits ; :
        let modes = DeviceTerminalModes.numbers(numbers)
        if final == UInt8(ascii: "h") || final == UInt8(ascii: "l") {
            guard !modes.isEmpty else { return false }
            return isPrivate ? modes.allSatisfy(DeviceTerminalModes.privateModes.contains) : modes == [4]
        }
        return !isPrivate && passedFinals.contains(final)
    }
}
