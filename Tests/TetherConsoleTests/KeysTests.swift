import Testing

@testable import TetherConsole

/// The keys of `connect`: the escape key's commands, what Enter sends, and the
/// interrupt key.
@Suite struct KeysTests {
    @Test func onlyCtrlCIsAnInterruptKey() {
        #expect(InterruptKey.bytes == [0x03])
        #expect(InterruptKey.pieces(of: []) == [])
        #expect(InterruptKey.pieces(of: [0x61, 0x04, 0x1C, 0x1A]) == [.inOrder([0x61, 0x04, 0x1C, 0x1A])])
        #expect(InterruptKey.pieces(of: [0x03]) == [.now([0x03])])
        #expect(
            InterruptKey.pieces(of: [0x03, 0x03, 0x61, 0x62, 0x03, 0x63])
                == [.now([0x03, 0x03]), .inOrder([0x61, 0x62]), .now([0x03]), .inOrder([0x63])])
    }

    @Test func everyLocalCommandHasAKeyOfItsOwn() {
        let keys = LocalCommand.allCases.map(\.key)
        #expect(Set(keys).count == keys.count)
        for command in LocalCommand.allCases {
            #expect(LocalCommand(key: command.key.asciiValue!) == command)
        }
        #expect(LocalCommand(key: 0x14) == nil)
    }

    @Test func helpListsEveryCommandAndTheEscapeKeyItself() {
        let help = LocalCommand.help(escape: 0x01)
        #expect(help.hasPrefix("Local commands: press Ctrl-A, then\n"))
        for command in LocalCommand.allCases {
            #expect(help.contains("  \(command.key)  \(command.summary)\n"))
        }
        #expect(help.hasSuffix("  Ctrl-A  send Ctrl-A itself to the device\n"))
    }

    @Test func onlyTheCommandsThatAskTakeAnAnswer() {
        #expect(
            LocalCommand.allCases.filter { $0.question != nil } == [
                .runReset, .changeBaudRate, .sendFile, .sendHex, .sendByYModem, .sendByXModem,
            ])
    }

    @Test(arguments: [
        (EnterKey.cr, [0x61, 0x0D, 0x0D, 0x0A]), (.lf, [0x61, 0x0A, 0x0A, 0x0A]),
        (.crlf, [0x61, 0x0D, 0x0A, 0x0D, 0x0A, 0x0A]),
    ])
    func enterReplacesEachCR(enter: EnterKey, expected: [UInt8]) {
        #expect(enter.mapping([0x61, 0x0D, 0x0D, 0x0A]) == expected)
        #expect(enter.mapping([0x0A]) == [0x0A])
    }
}
