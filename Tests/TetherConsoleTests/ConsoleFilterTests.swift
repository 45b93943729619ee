import Testing

@testable import TetherConsole

/// The value types behind `tether connect`: the escape key's filter and the raw-mode
/// passthrough filter, fed whole, byte by byte and split at every point.
@Suite struct ConsoleFilterTests {
    /// Feeds `bytes` split at `cut` and joins adjacent byte outputs, so every split
    /// can be compared with the whole.
    static func feed(_ bytes: [UInt8], cut: Int) -> [EscapeKeyFilter.Output] {
        var filter = EscapeKeyFilter(escape: 0x14)
        var outputs: [EscapeKeyFilter.Output] = []
        for output in filter.feed(bytes[..<cut]) + filter.feed(bytes[cut...]) {
            if case .bytes(let more) = output, case .bytes(let before)? = outputs.last {
                outputs[outputs.count - 1] = .bytes(before + more)
            } else {
                outputs.append(output)
            }
        }
        return outputs
    }

    @Test func escapeThenAKeyIsACommandAndTwiceSendsTheEscapeKey() {
        let typed: [UInt8] = Array("ab".utf8) + [0x14, 0x71] + [0x03, 0x09] + [0x14, 0x14] + Array("c".utf8)
        let expected: [EscapeKeyFilter.Output] = [
            .bytes(Array("ab".utf8)), .command(0x71), .bytes([0x03, 0x09, 0x14, 0x63]),
        ]
        for cut in 0...typed.count {
            #expect(Self.feed(typed, cut: cut) == expected, "cut at \(cut)")
        }
    }

    @Test(arguments: [("ctrl-t", 0x14), ("Ctrl-A", 0x01), ("^]", 0x1D), ("^t", 0x14), ("ctrl-@", 0x00)])
    func escapeKeyNamesParse(text: String, key: Int) {
        #expect(EscapeKeyFilter.key(parsing: text) == UInt8(key))
    }

    @Test(arguments: ["t", "ctrl-", "ctrl-tt", "ctrl-{", "ctrl-é", ""])
    func badEscapeKeyNamesAreRefused(text: String) {
        #expect(EscapeKeyFilter.key(parsing: text) == nil)
    }

    @Test func passthroughKeepsLineEditingAndColourButEscapesOtherControls() {
        // A shell's prompt in colour, a backspace-space-backspace erase, a bell, then an
        // OSC title change, a NUL and DEL that must not reach the terminal raw.
        let input = Array("\u{1b}[1;32mroot\u{1b}[0m# ab\u{8} \u{8}\u{7}\r\n\u{1b}]0;owned\u{7}\u{0}\u{7f}é".utf8)
        let expected = "\u{1b}[1;32mroot\u{1b}[0m# ab\u{8} \u{8}\u{7}\r\n\\x1b]0;owned\u{7}\\x00\\x7fé"
        var whole = PassthroughFilter()
        #expect(String(decoding: whole.filter(input), as: UTF8.self) == expected)
        for cut in 0...input.count {
            var split = PassthroughFilter()
            let output = split.filter(Array(input[..<cut])) + split.filter(Array(input[cut...]))
            #expect(String(decoding: output, as: UTF8.self) == expected, "cut at \(cut)")
        }
    }

    /// `input` through one filter, whole and split at every point: each the same.
    static func passed(_ input: [UInt8]) -> (String, PassthroughFilter) {
        var whole = PassthroughFilter()
        let expected = whole.filter(input)
        for cut in 0...input.count {
            var split = PassthroughFilter()
            let output = split.filter(Array(input[..<cut])) + split.filter(Array(input[cut...]))
            #expect(output == expected, "cut at \(cut)")
            #expect(split.modes == whole.modes, "cut at \(cut)")
        }
        return (String(decoding: expected, as: UTF8.self), whole)
    }

    /// Queries the terminal would answer by typing to the device, printer mode, key
    /// modifiers, mode reports and a full reset are shown, not obeyed.
    @Test func passthroughEscapesQueriesAndWhatOutlivesTheSession() {
        let input = "a\u{1b}[6nb\u{1b}[c\u{1b}[>c\u{1b}[21t\u{1b}[5i\u{1b}[?1$p\u{1b}[>4;1m\u{1b}c\u{1b}[?9h\u{1b}[3g"
        let (shown, filter) = Self.passed(Array(input.utf8))
        #expect(
            shown
                == "a\\x1b[6nb\\x1b[c\\x1b[>c\\x1b[21t\\x1b[5i\\x1b[?1$p\\x1b[>4;1m\\x1bc\\x1b[?9h\\x1b[3g")
        #expect(filter.modes.undo.isEmpty)
    }

    /// C1 controls sent as UTF-8 (U+009B CSI, U+009D OSC — a way round the ESC filter)
    /// and raw are shown escaped; other UTF-8, `°` (c2 b0) included, passes.
    @Test func passthroughEscapesC1Controls() {
        let input: [UInt8] =
            [0xC2, 0x9B] + Array("6n".utf8) + [0xC2, 0x9D] + Array("0;x\u{7}".utf8) + [0x9B, 0x41]
            + Array("°é€🙂".utf8) + [0xFF]
        let (shown, _) = Self.passed(input)
        #expect(shown == "\\xc2\\x9b6n\\xc2\\x9d0;x\u{7}\\x9bA°é€🙂\\xff")
    }

    /// What a full-screen program needs passes, and what it changed is undone in order:
    /// the alternate screen first, the scroll region with the cursor kept, then the rest.
    @Test func passthroughPassesAFullScreenProgramAndKnowsItsUndo() {
        let input =
            "\u{1b}[?1049h\u{1b}[?25l\u{1b}[2J\u{1b}[H\u{1b}[1;24r\u{1b}[?1000h\u{1b}[?1006h\u{1b}[?2004h\u{1b}="
            + "\u{1b}(0q\u{1b}(B\u{1b}7\u{1b}8\u{1b}M\u{1b}[7m\u{1b}[4h\u{1b}[3;5H\u{1b}[K\u{1b}[2P"
        let (shown, filter) = Self.passed(Array(input.utf8))
        #expect(shown == input)
        #expect(
            String(decoding: filter.modes.undo, as: UTF8.self)
                == "\u{1b}[?1049l\u{1b}7\u{1b}[r\u{1b}8\u{1b}[0m\u{1b}[?25h\u{1b}[?1000l\u{1b}[?1006l"
                + "\u{1b}[?2004l\u{1b}[4l\u{1b}>")
    }

    /// A device that puts back what it changed leaves nothing to undo.
    @Test func passthroughUndoIsEmptyOnceTheDeviceResetsItsModes() {
        let input = "\u{1b}[?25l\u{1b}[1;31mred\u{1b}[0m\u{1b}[?25h\u{1b}[5;10r\u{1b}[r\u{1b}=\u{1b}>"
        let (shown, filter) = Self.passed(Array(input.utf8))
        #expect(shown == input)
        #expect(filter.modes.undo.isEmpty)
    }

    @Test func passthroughStampsEachLineWhenAsked() {
        var filter = PassthroughFilter()
        filter.timestamp = { "12:00:00.000" }
        let output = filter.filter(Array("a\r\nb".utf8)) + filter.filter(Array("c\n\n".utf8))
        #expect(String(decoding: output, as: UTF8.self) == "12:00:00.000 a\r\n12:00:00.000 bc\n\n")
    }

    @Test func passthroughCanEndLinesAtALoneCR() {
        let input = Array("a\rb\r\nc\r".utf8) + Array("\nd\r".utf8)
        for cut in 0...input.count {
            var filter = PassthroughFilter()
            filter.endsLinesAtCR = true
            let output = filter.filter(Array(input[..<cut])) + filter.filter(Array(input[cut...]))
            #expect(String(decoding: output, as: UTF8.self) == "a\r\nb\r\nc\r\nd\r\n", "cut at \(cut)")
        }
    }
}
