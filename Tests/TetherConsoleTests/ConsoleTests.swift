import Foundation
import Synchronization
import Testing
import TetherSerial
import TetherViews

@testable import TetherConsole

/// The mediator of `connect`: what each input does to the device, the terminal and the
/// view, with stand-ins for the device and the terminal.
@Suite struct ConsoleTests {
    /// A console on a recording terminal and device, with Ctrl-T as its escape key.
    struct Harness {
        let screen: RecordingScreen
        let device: RecordingDevice
        let view: ConsoleView
        let console: Console

        init(
            mode: ConsoleMode = .line, enter: EnterKey = .cr, logPath: String? = nil,
            device: RecordingDevice = RecordingDevice()
        ) {
            screen = RecordingScreen(mode: mode)
            self.device = device
            view = ConsoleView(
                terminal: screen,
                settings: ConsoleView.Settings(
                    mode: mode, showsHex: false, showsTimestamps: false, log: nil, logPath: nil))
            console = Console(
                terminal: screen, view: view, device: device, timeout: .milliseconds(500), escape: 0x14, enter: enter,
                logPath: logPath, portName: "/dev/ttyUSB0", dialectName: "line")
        }

        /// Types `inputs`, then ends the input, and runs the session to its end.
        func run(_ inputs: [ConsoleInput]) async -> Console.End {
            for input in inputs { screen.type(input) }
            screen.type(finish: true)
            return await console.run()
        }

        /// Runs the escape key's commands `keys`, e.g. `"dd"`, and returns what they
        /// wrote, the greeting left out.
        func command(_ keys: String) async -> String {
            _ = await run(keys.utf8.map { .command(key: $0) })
            return screen.text.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
                .joined(separator: "\n")
        }
    }

    @Test func typedLinesGoToTheDeviceWithTheReplyTimeout() async {
        let harness = Harness()
        #expect(await harness.run([.line("RATE 0"), .line("")]) == .inputEnded)
        #expect(harness.screen.isStarted)
        #expect(harness.screen.text == "line mode; Ctrl-T ? lists the local commands, Ctrl-T q quits.\n")
        #expect(
            harness.device.sentItems == [
                .line(Array("RATE 0".utf8), timeout: .milliseconds(500)), .line([], timeout: .milliseconds(500)),
            ])
    }

    /// A typed line's escapes are the Model's (`CommandText`); a bad one sends nothing.
    @Test func typedLinesTakeEscapes() async {
        let harness = Harness()
        _ = await harness.run([.line(#"PRINT\x41\t\\"#), .line(#"BAD\q"#), .line("C")])
        #expect(
            harness.device.sentItems == [
                .line(Array("PRINTA\t\\".utf8), timeout: .milliseconds(500)),
                .line([0x43], timeout: .milliseconds(500)),
            ])
        let message =
            #"Bad escape '\q' at position 4 in the command 'BAD\q': use \r, \n, \t, \e, \xNN (two hex digits) or \\"#
        #expect(harness.screen.text.hasSuffix(message + "; nothing sent\n"))
    }

    @Test(arguments: [
        (EnterKey.cr, [0x61, 0x0D, 0x62, 0x0D]), (.lf, [0x61, 0x0A, 0x62, 0x0A]),
        (.crlf, [0x61, 0x0D, 0x0A, 0x62, 0x0D, 0x0A]),
    ])
    func keystrokesGoAsTypedWithEnterMapped(enter: EnterKey, expected: [UInt8]) async {
        let harness = Harness(mode: .raw, enter: enter)
        _ = await harness.run([.keystrokes([0x61, 0x0D]), .keystrokes([0x62, 0x0D])])
        #expect(harness.device.sentBytes == expected)
        #expect(harness.screen.text.hasPrefix("raw mode; "))
    }

    /// Ctrl-C in raw mode is an immediate write, ahead of what is queued; the keys
    /// around it, Enter mapped, stay in order; a 0x03 in hex bytes is not a key.
    @Test func ctrlCIsSentAtOnceAndTheOtherKeysInOrder() async {
        let harness = Harness(mode: .raw, enter: .crlf)
        _ = await harness.run([
            .keystrokes([0x61, 0x03, 0x62, 0x0D]), .keystrokes([0x03, 0x03]), .keystrokes([0x63]), .sendHex("03"),
        ])
        #expect(
            harness.device.sentItems == [
                .bytes([0x61]), .now([0x03]), .bytes([0x62, 0x0D, 0x0A]), .now([0x03, 0x03]), .bytes([0x63]),
                .bytes([0x03]),
            ])
    }

    @Test func quitEndsTheSessionBeforeWhatFollows() async {
        let harness = Harness()
        #expect(await harness.run([.command(key: UInt8(ascii: "q")), .line("after")]) == .quit)
        #expect(harness.device.sentItems.isEmpty)
    }

    @Test(arguments: [(true, Console.End.hungUp), (false, .inputEnded)])
    func theEndOfInputEndsTheSession(hungUp: Bool, end: Console.End) async {
        let harness = Harness()
        #expect(await harness.run([.end(hungUp: hungUp), .line("after")]) == end)
        #expect(harness.device.sentItems.isEmpty)
    }

    @Test func anUnknownKeyNamesTheHelpKey() async {
        #expect(await Harness().command("z") == "unknown local command 'z'; Ctrl-T ? lists them\n")
    }

    @Test func helpListsEveryCommand() async {
        #expect(await Harness().command("?") == LocalCommand.help(escape: 0x14))
    }

    @Test func viewTogglesChangeTheViewsSettings() async {
        let harness = Harness()
        #expect(await harness.command("hht") == "hex view on\nhex view off\ntimestamps on\n")
        let settings = harness.view.settings.withLock { $0 }
        #expect(!settings.showsHex)
        #expect(settings.showsTimestamps)
    }

    @Test func localEchoIsTheTerminals() async {
        let harness = Harness(mode: .raw)
        #expect(await harness.command("e") == "local echo on\n")
        #expect(harness.screen.echoesLocally)
    }

    /// The terminal switches its mode as it reads `m`; the view follows when the
    /// command comes.
    @Test func switchingModeTellsTheView() async {
        let harness = Harness()
        harness.screen.mode = .raw
        #expect(await harness.command("m") == "raw mode\n")
        #expect(harness.view.settings.withLock { $0.mode } == .raw)
    }

    @Test func lineCommandsActOnThePort() async {
        let harness = Harness()
        #expect(
            await harness.command("ddrbpL")
                == "DTR off\nDTR on\nRTS off\nbreak sent (250 ms)\nDTR pulsed (off 100 ms, then on)\nmodem lines: DTR\n"
        )
        let lines = harness.device.lines.state.withLock { $0 }
        #expect(lines.breaks == [250])
        #expect(lines.pulses == [100])
        #expect(lines.modemLines == [.dtr])
    }

    /// `L` said `modem lines: none` when no line was asserted: an empty set's
    /// description is `none`, never empty.
    @Test func noModemLineAssertedIsSaidSo() async {
        let harness = Harness()
        #expect(await harness.command("drL").hasSuffix("modem lines: none asserted\n"))
    }

    @Test func aPortAwaySaysWhyACommandCannot() async {
        let harness = Harness(device: RecordingDevice(failing: .disconnected(path: "/dev/ttyUSB0")))
        let error = SerialError.disconnected(path: "/dev/ttyUSB0")
        #expect(await harness.command("d") == "cannot: \(error)\n")
    }

    @Test func aBaudRateIsSetWhenItIsOne() async {
        let harness = Harness()
        _ = await harness.run([
            .changeBaudRate(" 57600 "), .changeBaudRate("fast"), .changeBaudRate("0"), .changeBaudRate("4294967296"),
            .command(key: UInt8(ascii: "c")),
        ])
        #expect(harness.device.lines.state.withLock { $0.baudRates } == [57600])
        let messages = harness.screen.text.split(separator: "\n").dropFirst()
        #expect(
            Array(messages.dropLast()) == [
                "baud rate 57600 set; the port reports 57600 8N1",
                "'fast' is not a baud rate (a whole number of bit/s, e.g. 115200)",
                "'0' is not a baud rate (a whole number of bit/s, e.g. 115200)",
                "'4294967296' is not a baud rate (a whole number of bit/s, e.g. 115200)",
            ])
        // `c` shows what the port reported after the change, not the settings of the open.
        #expect(messages.last?.hasPrefix("/dev/ttyUSB0 57600 8N1, dialect line;") == true, "\(harness.screen.text)")
    }

    @Test func aResetSequenceRunsByNameOrSteps() async {
        let harness = Harness()
        _ = await harness.run([.runReset("esptool-classic"), .runReset(" D0|W0.1|D1 "), .runReset("esptool-fast")])
        #expect(harness.device.lines.state.withLock { $0.sequences } == ["esptool-classic", "D0|W0.1|D1"])
        let messages = Array(harness.screen.text.split(separator: "\n").dropFirst())
        #expect(messages.prefix(2) == ["reset esptool-classic done", "reset D0|W0.1|D1 done"])
        #expect(messages.last?.hasPrefix("'esptool-fast' is neither a reset sequence") == true, "\(messages)")
    }

    @Test func aFileIsSentAsItIsInPieces() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("upload.bin")
        let bytes = (0..<300).map { UInt8($0 % 256) }
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let harness = Harness()
        _ = await harness.run([.sendFile(path: path), .sendFile(path: folder.path("nowhere"))])
        #expect(
            harness.device.sentItems == [
                .bytes(Array(bytes[0..<128])), .bytes(Array(bytes[128..<256])), .bytes(Array(bytes[256...])),
            ])
        #expect(harness.screen.text.hasSuffix("sent 300 bytes from \(path)\ncannot read \(folder.path("nowhere"))\n"))
    }

    @Test func hexBytesAreSentExactly() async {
        let harness = Harness()
        _ = await harness.run([.sendHex("7f 00 ff 0d"), .sendHex("7g")])
        #expect(harness.device.sentItems == [.bytes([0x7F, 0x00, 0xFF, 0x0D])])
        #expect(
            harness.screen.text.hasSuffix(
                "sent 4 bytes: 7f 00 ff 0d\n'7g' is not hex bytes (pairs of hex digits, e.g. 7f 00 ff); nothing sent\n")
        )
    }

    /// 3000 bytes sent with `w` were shown as 3000 hex pairs: the first 16 are shown.
    @Test func manyHexBytesAreShownAsTheirFirst16() async {
        let harness = Harness()
        let bytes = (0..<3000).map { UInt8($0 % 256) }
        _ = await harness.run([.sendHex(ByteEscaping.hex(bytes))])
        #expect(harness.device.sentItems == [.bytes(bytes)])
        #expect(
            harness.screen.text.hasSuffix(
                "sent 3000 bytes: 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f …\n"))
    }

    @Test func theLogStartsAndStops() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("session.jsonl")
        let harness = Harness(logPath: path)
        #expect(
            await harness.command("lcl") == "logging to \(path)\n" + "/dev/ttyUSB0 (not connected), dialect line; "
                + "line mode; hex off; timestamps off; local echo off; log \(path)\nlog \(path) closed\n")
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(harness.view.settings.withLock { $0.log == nil && $0.logPath == nil })
    }

    @Test func aLogThatCannotOpenSaysSo() async {
        let harness = Harness(logPath: "/nowhere/session.jsonl")
        #expect(await harness.command("l").hasPrefix("cannot open the log file "))
        #expect(harness.view.settings.withLock { $0.logPath == nil })
    }

    @Test func theDefaultLogIsNamedByTheLocalTime() {
        let name = Console.defaultLogName(Date(timeIntervalSince1970: 1_764_499_277))
        #expect(name.wholeMatch(of: /tether-2025(11|12)\d\d-\d{6}\.jsonl/) != nil, "\(name)")
    }
}
