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
