import CLibVTerm
import Testing

@testable import TetherModel

/// A line's terminal edits applied as a terminal leaves its row: Zephyr's shell redraw,
/// erases, cursor moves; and, for random lines of them, what libvterm's screen shows.
@Suite struct TerminalRowTests {
    private func rendered(_ text: String) -> String {
        String(decoding: TerminalRow.rendered(Array(text.utf8)), as: UTF8.self)
    }

    /// Zephyr's shell: `uart:~$ k` typed, then a log message erases the prompt with
    /// `ESC[9D ESC[J` before it is printed — the line read is the log line alone.
    @Test func zephyrShellRedrawLeavesTheLogLine() {
        let bytes = "uart:~$ k\u{1B}[9D\u{1B}[J[00:00:48.453,000] \u{1B}[0m<inf> net_if: iface up\u{1B}[0m"
        #expect(rendered(bytes) == "[00:00:48.453,000] <inf> net_if: iface up")
        let line = ControlSequences.cleaned(Line(Array(bytes.utf8), ending: .terminated, terminator: .crlf))
        #expect(String(decoding: line.bytes, as: UTF8.self) == "[00:00:48.453,000] <inf> net_if: iface up")
        #expect(line.exactBytes == Array(bytes.utf8))
    }

    /// Text without a line end yet keeps its sequences removed only: it stays a prefix
    /// of what comes (a prompt a reader matches).
    @Test func unterminatedTextOnlyLosesItsSequences() {
        let line = ControlSequences.cleaned(Line(Array("abc\u{1B}[2Dx".utf8), ending: .unterminated))
        #expect(String(decoding: line.bytes, as: UTF8.self) == "abcx")
    }

    @Test(arguments: [
        ("progress  10%\u{1B}[4D 50%", "progress  50%"), ("abc\u{1B}[Kdef", "abcdef"),
        ("abcdef\u{1B}[3D\u{1B}[K", "abc"),
        ("abcdef\u{1B}[3D\u{1B}[1KX", "   Xef"), ("abcdef\u{1B}[2Kxy", "      xy"), ("abc\u{1B}[2J", ""),
        ("a\u{1B}[3Cb", "a   b"), ("abcdef\u{1B}[2Gz", "azcdef"), ("abcdef\u{1B}[2D\u{1B}[P", "abcdf"),
        ("abc\u{8}\u{8}X", "aXc"), ("\u{1B}[1;31mred\u{1B}[0m", "red"), ("\u{1B}[?25lhidden cursor", "hidden cursor"),
        ("\u{1B}[5Dstart", "start"), ("\u{1B}]0;title\u{7}text", "text"), ("héllo\u{1B}[4Da", "hallo"),
    ])
    func editsAreApplied(bytes: String, row: String) {
        #expect(rendered(bytes) == row)
    }

    /// libvterm's screen for `bytes` on one 80-column row: written characters, erased
    /// or never written cells as spaces before the last written one.
    private func libvtermRow(_ bytes: [UInt8]) -> String {
        let vt = vterm_new(1, 80)!
        defer { vterm_free(vt) }
        vterm_set_utf8(vt, 1)
        let screen = vterm_obtain_screen(vt)!
        vterm_screen_reset(screen, 1)
        _ = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { vterm_input_write(vt, $0.baseAddress, $0.count) }
        }
        var columns: [String?] = []
        for column in 0..<80 {
            var cell = VTermScreenCell()
            _ = vterm_screen_get_cell(screen, VTermPos(row: 0, col: Int32(column)), &cell)
            let scalar = cell.chars.0
            columns.append(scalar == 0 ? nil : Unicode.Scalar(scalar).map { String(Character($0)) })
        }
        while let last = columns.last, last == nil { columns.removeLast() }
        return columns.map { $0 ?? " " }.joined()
    }

    /// Random lines of characters and edits: tether's row is libvterm's (2 000 lines,
    /// short enough that the row never wraps).
    @Test func randomLinesRenderAsLibvtermShowsThem() {
        var state: UInt64 = 0x5DEE_CE66
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        let pieces = [
            "a", "b", "Z", "0", " ", "é", "\u{8}", "\u{1B}[D", "\u{1B}[2D", "\u{1B}[C", "\u{1B}[3C", "\u{1B}[K",
            "\u{1B}[0K", "\u{1B}[1K", "\u{1B}[2K", "\u{1B}[J", "\u{1B}[1J", "\u{1B}[G", "\u{1B}[4G", "\u{1B}[P",
            "\u{1B}[2P", "\u{1B}[1;32m", "\u{1B}[0m", "\u{1B}[?25h",
        ]
        var checked = 0
        for _ in 0..<2000 {
            let text = (0..<(next() % 16)).map { _ in pieces[next() % pieces.count] }.joined()
            let bytes = Array(text.utf8)
            let ours = String(decoding: TerminalRow.rendered(bytes), as: UTF8.self)
            #expect(ours == libvtermRow(bytes), "\(text.debugDescription)")
            checked += 1
        }
        #expect(checked == 2000)
    }
}
