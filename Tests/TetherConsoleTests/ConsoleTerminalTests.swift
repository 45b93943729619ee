import Glibc
import Testing
import TetherTransfer

@testable import TetherConsole

/// The terminal thread of `connect` on a pty: what it reports of the keys typed, what
/// it draws, and the terminal settings it leaves.
@Suite(.serialized) struct ConsoleTerminalTests {
    /// A started terminal on a pty, its history in a folder of its own.
    struct Harness {
        let pty: TestTerminal
        let folder: TemporaryFolder
        let terminal: ConsoleTerminal
        let inputs: CollectedInputs
        /// The pty's settings before the terminal thread started.
        let settingsAtStart: termios

        init(mode: ConsoleMode, raw: Bool = true) throws {
            pty = try TestTerminal(raw: raw)
            settingsAtStart = pty.settings
            folder = try TemporaryFolder()
            terminal = try #require(
                ConsoleTerminal(
                    mode: mode, escape: 0x14, historyPath: folder.path("history"), input: pty.terminal,
                    output: pty.terminal))
            inputs = CollectedInputs(terminal.inputs)
            terminal.start()
        }

        /// Types `text`, then waits until the inputs so far are `expected`.
        func type(_ text: String, giving expected: [ConsoleInput]) async -> Bool {
            pty.type(text)
            return await inputs.wait { $0 == expected }
        }
    }

    @Test func rawModeGivesTheKeysAsTypedAndTakesOutTheEscapeKeysCommands() async throws {
        let harness = try Harness(mode: .raw)
        harness.pty.type("ab\u{3}\t\u{14}\u{14}c\u{14}?")
        #expect(await harness.inputs.wait { $0.last == .command(key: UInt8(ascii: "?")) })
        #expect(harness.inputs.merged == [.keystrokes(Array("ab\u{3}\t\u{14}c".utf8)), .command(key: 0x3F)])
        harness.terminal.stop()
    }

    /// Typed in one burst (a paste, a fast typist): the answer to the question takes
    /// the keys up to Enter; the keys after it go to the device.
    @Test func aQuestionTakesTheKeysTypedAheadUpToEnter() async throws {
        let harness = try Harness(mode: .raw)
        harness.pty.type("\u{14}B5760\u{7f}00\rxyz")
        #expect(await harness.inputs.wait { $0.last == .keystrokes(Array("xyz".utf8)) })
        #expect(harness.inputs.merged == [.changeBaudRate("57600"), .keystrokes(Array("xyz".utf8))])
        let asked = "baud rate: 5760\u{8} \u{8}00\r\n"  // Backspace erases the 0 it drops
        #expect(harness.pty.shown { $0.contains(asked) }.contains(asked))
        harness.terminal.stop()
    }

    /// Line mode, a line and a local command in one read ("sleep 2; rb", Enter, Ctrl-T y
    /// typed fast): the line is given first, then the command's answer.
    @Test func aLineTypedBeforeACommandInTheSameReadComesFirst() async throws {
        let harness = try Harness(mode: .line)
        #expect(
            await harness.type(
                "rb\r\u{14}yimage.bin\rok\r",
                giving: [.line("rb"), .sendByProtocol(path: "image.bin", protocol: .ymodem)]))
        harness.terminal.endTransfer()
        #expect(
            await harness.inputs.wait {
                $0 == [.line("rb"), .sendByProtocol(path: "image.bin", protocol: .ymodem), .line("ok")]
            })
        harness.terminal.stop()
    }

    @Test func hexBytesAreAskedForInLineModeToo() async throws {
        let harness = try Harness(mode: .line)
        #expect(await harness.type("\u{14}w7f 00\r", giving: [.sendHex("7f 00")]))
        #expect(await harness.type("ok\r", giving: [.sendHex("7f 00"), .line("ok")]))
        harness.terminal.stop()
    }

    @Test func ctrlCCancelsAQuestion() async throws {
        let harness = try Harness(mode: .raw)
        #expect(await harness.type("\u{14}f/nowhere\u{3}ok", giving: [.keystrokes(Array("ok".utf8))]))
        harness.terminal.stop()
    }

    /// In line mode libedit's terminal settings make Ctrl-C a SIGINT, which ended the
    /// whole session (exit 130) at `w`'s, `B`'s and `f`'s question: typed there, it
    /// cancels only the question, and the line typed next is sent.
    @Test(arguments: [LocalCommand.sendHex, .changeBaudRate, .sendFile])
    func ctrlCCancelsAQuestionInLineMode(command: LocalCommand) async throws {
        let harness = try Harness(mode: .line)
        let question = try #require(command.question)
        harness.pty.type("\u{14}\(command.key)")
        #expect(harness.pty.shown { $0.contains(question) }.contains(question))
        #expect(await harness.type("ab\u{3}ok\r", giving: [.line("ok")]))
        harness.terminal.stop()
    }

    /// Received bytes go where the last output ended; lines start on a fresh line,
    /// with CR LF line ends.
    @Test func rawModeDrawsBytesInlineAndLinesOnALineOfTheirOwn() async throws {
        let harness = try Harness(mode: .raw)
        harness.terminal.writeBytes(Array("=> ".utf8))
        harness.terminal.write("disconnected\n")
        harness.terminal.writeBytes(Array("x".utf8))
        #expect(harness.pty.shown { $0.hasSuffix("x") } == "=> \r\ndisconnected\r\nx")
        harness.terminal.stop()
        #expect(harness.pty.shown { $0.hasSuffix("\r\n") } == "\r\n")  // the shell's prompt on a line of its own
    }

    @Test func localEchoShowsTheKeysEscapedAndEnterAsANewLine() async throws {
        let harness = try Harness(mode: .raw)
        harness.terminal.echoesLocally = true
        harness.pty.type("a\u{1}\r")
        #expect(harness.pty.shown { $0.hasSuffix("\r\n") } == "a\\x01\r\n")
        harness.terminal.stop()
    }

    @Test(arguments: [ConsoleMode.raw, .line])
    func theSettingsFoundAreBackAfterTheEnd(mode: ConsoleMode) async throws {
        let harness = try Harness(mode: mode, raw: false)
        // Read before the thread started: it may set its mode before this test runs on.
        let before = harness.settingsAtStart
        #expect(await waitUntil { !harness.pty.settings.isSame(as: before) })  // the terminal's mode is on
        harness.terminal.stop()
        #expect(harness.pty.settings.isSame(as: before))
        #expect(await waitUntil { harness.inputs.hasEnded })
    }

    @Test func aTerminalThatHangsUpEndsTheInput() async throws {
        let harness = try Harness(mode: .raw)
        harness.pty.hangUp()
        #expect(await harness.inputs.wait { $0 == [.end(hungUp: true)] })
        #expect(await waitUntil { harness.inputs.hasEnded })
        harness.terminal.stop()
    }

    @Test func lineModeGivesEditedLinesAndCtrlDOnAnEmptyLineEndsIt() async throws {
        let harness = try Harness(mode: .line)
        #expect(await harness.type("RATX\u{7f}E 0\r", giving: [.line("RATE 0")]))
        #expect(await harness.type("\u{4}", giving: [.line("RATE 0"), .end(hungUp: false)]))
        #expect(await waitUntil { harness.inputs.hasEnded })
        harness.terminal.stop()
    }

    /// `m` switches the mode as it is read, so the keys right after it are read in
    /// the new mode.
    @Test func switchingModeTakesEffectAtOnce() async throws {
        let harness = try Harness(mode: .raw)
        let switched = ConsoleInput.command(key: UInt8(ascii: "m"))
        #expect(await harness.type("\u{14}m", giving: [switched]))
        #expect(harness.terminal.mode == .line)
        #expect(await harness.type("HUM?\r", giving: [switched, .line("HUM?")]))
        harness.terminal.stop()
    }

    /// Output while a line is being typed goes above it: the prompt's row is cleared,
    /// the output written there, and the prompt and text drawn again below it.
    @Test func lineModeDrawsOutputAboveTheLineBeingTyped() async throws {
        let harness = try Harness(mode: .line)
        harness.pty.type("TEM")
        _ = harness.pty.shown { $0.hasSuffix("TEM") }
        harness.terminal.write("!READING 21.5\n")
        // libedit's terminal mode keeps output processing on: the pty adds a CR to each LF.
        let expected = "\r\u{1b}[J!READING 21.5\r\r\n> TEM"
        #expect(harness.pty.shown { $0.hasSuffix("> TEM") } == expected)
        #expect(await harness.type("P?\r", giving: [.line("TEMP?")]))
        harness.terminal.stop()
    }
}

/// Waits (at most 10 s) until `condition` holds.
func waitUntil(_ condition: () -> Bool) async -> Bool {
    let end = ContinuousClock.now + .seconds(10)
    while !condition() {
        guard ContinuousClock.now < end else { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
