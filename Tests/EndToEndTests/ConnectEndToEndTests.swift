import Foundation
import Testing
import TetherSimulator

/// `tether connect` as a person uses it, in a real terminal (tmux) against the
/// simulator: line editing and history, notifications while typing, raw mode keys,
/// pastes, the escape key's commands and the terminal settings after exit.
@Suite(.serialized) struct ConnectEndToEndTests {
    /// A simulator on a link in `folder`, recording what it receives.
    static func simulator(_ profile: String, in folder: TemporaryFolder) throws -> Simulator {
        try Simulator(
            device: SimulatorProfiles.device(named: profile), link: folder.path("device"),
            transcript: Transcript(path: folder.path("sim.log")))
    }

    /// `tether connect` on the simulator's link in a new terminal, with `arguments`,
    /// the history kept in `folder`.
    static func connect(_ folder: TemporaryFolder, _ arguments: [String] = []) throws -> TmuxTerminal {
        try TmuxTerminal(
            ["tether", "connect", folder.path("device")] + arguments,
            environment: ["XDG_STATE_HOME": folder.path("state")])
    }

    static func received(_ folder: TemporaryFolder) -> String {
        String(decoding: TranscriptBytes.received(in: folder.path("sim.log")), as: UTF8.self)
    }

    @Test func lineModeEditsRecallsHistoryAndSendsAnEmptyLine() throws {
        let folder = try TemporaryFolder()
        let simulator = try Self.simulator("env", in: folder)
        defer { simulator.stop() }
        let state = folder.path("state")
        let terminal = try Self.connect(folder)
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.press("C-z")  // ignored: a suspended tether would leave the terminal in its mode
        terminal.type("RATE 0")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "RATE 0 → OK"))
        // SETX, Left Left, Backspace (drops E), E, End, Backspace (drops X), P? → SETP?
        terminal.type("SETX")
        terminal.press("Left", "Left", "BSpace")
        terminal.type("E")
        terminal.press("End", "BSpace")
        terminal.type("P?")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "SETP? → 22.0"))
        terminal.press("Up", "Up")
        #expect(terminal.waitForScreen { $0.split(separator: "\n").last == "> RATE 0" })
        terminal.press("C-u", "Enter")
        terminal.type("h\u{e9}llo \u{20ac}")
        terminal.press("Left", "BSpace", "End", "Enter")
        #expect(
            waitUntil { Self.received(folder).hasSuffix("RATE 0\nSETP?\n\nh\u{e9}llo\u{20ac}\n") },
            "\(Self.received(folder))")
        terminal.press("C-d")
        #expect(terminal.waitForExit() == 0, "\(terminal.screen)")
        #expect(terminal.terminalSettingsUnchanged)

        // The history is kept in $XDG_STATE_HOME/tether/history for the next session.
        let history = try String(contentsOfFile: state + "/tether/history", encoding: .utf8)
        #expect(history.contains("SETP?"))
        let again = try Self.connect(folder)
        #expect(again.waitForScreen(containing: "line mode"))
        again.press("Up")
        #expect(again.waitForScreen { $0.split(separator: "\n").last == "> h\u{e9}llo\u{20ac}" }, "\(again.screen)")
        again.press("Up")
        #expect(again.waitForScreen { $0.split(separator: "\n").last == "> SETP?" }, "\(again.screen)")
        again.press("C-t", "q")
        #expect(again.waitForExit() == 0)
    }

    @Test func aNotificationWhileTypingLeavesTheTypedTextIntact() throws {
        let folder = try TemporaryFolder()
        let simulator = try Self.simulator("env", in: folder)
        defer { simulator.stop() }
        let terminal = try Self.connect(folder)
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.type("RATE 50")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "RATE 50 → OK"))
        terminal.type("TEM")
        let readingsBefore = terminal.screen.components(separatedBy: "!READING").count
        #expect(terminal.waitForScreen { $0.components(separatedBy: "!READING").count > readingsBefore + 3 })
        let lines = terminal.screen.split(separator: "\n")
        #expect(lines.last == "> TEM", "\(terminal.screen)")
        #expect(!lines.dropLast().contains { $0.contains("TEM!") || $0.contains("TEMP") }, "\(terminal.screen)")
        terminal.type("P?")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "TEMP? → "))
        #expect(Self.received(folder).contains("TEMP?\n"))
        #expect(terminal.quitsCleanly())
    }

    @Test func rawModeSendsControlKeysAndShowsThePromptAsItArrives() throws {
        let folder = try TemporaryFolder()
        let simulator = try Self.simulator("prompt-console", in: folder)
        defer { simulator.stop() }
        let terminal = try Self.connect(folder, ["--dialect", "prompt"])
        #expect(terminal.waitForScreen(containing: "raw mode"))
        terminal.type("vers")
        terminal.press("Tab", "C-c", "C-t", "C-t")
        #expect(waitUntil { Self.received(folder) == "vers\t\u{03}\u{14}" }, "\(Self.received(folder))")
        terminal.press("C-u")
        terminal.type("version")
        terminal.press("Enter")
        // The console's prompt has no line end: raw mode shows it as it arrives.
        #expect(terminal.waitForScreen { $0.split(separator: "\n").last == "=>" }, "\(terminal.screen)")
        #expect(terminal.quitsCleanly())
    }

    /// A console's prompt has no line end; line mode shows it once the device is quiet.
    @Test func lineModeShowsAPromptWithoutLineEnd() throws {
        let folder = try TemporaryFolder()
        let simulator = try Self.simulator("prompt-console", in: folder)
        defer { simulator.stop() }
        let terminal = try Self.connect(folder, ["--mode", "line", "--dialect", "line", "--eol", "cr"])
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.type("version")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "version → TBoot"))
        #expect(terminal.waitForScreen(containing: "\n=>  [unterminated]\n>"), "\(terminal.screen)")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "(empty line) ✗ no reply within 1000 ms"))
        #expect(terminal.quitsCleanly())
    }

    /// Two unknown commands typed in line mode, both answered with the same error:
    /// connect noted `replies settle from now on: '-113,"Undefined header"' came again,
    /// to BAR`, a repeat the device never made (docs/DIALECTS.md, "Stray lines").
    @Test func theSameErrorToTwoTypedCommandsIsNoRepeat() throws {
        let folder = try TemporaryFolder()
        let simulator = try Self.simulator("scpi-psu", in: folder)
        defer { simulator.stop() }
        let terminal = try Self.connect(folder, ["--mode", "line", "--dialect", "scpi", "--check-errors"])
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.type("FOO")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "FOO ✗ -113,\"Undefined header\""), "\(terminal.screen)")
        terminal.type("BAR")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "BAR ✗ -113,\"Undefined header\""), "\(terminal.screen)")
        #expect(!terminal.screen.contains("note:"), "\(terminal.screen)")
        #expect(terminal.quitsCleanly())

        let piped = try Subprocess.run("tether", ["connect", "--sim", "--format", "json"], stdin: "FOO\nBAR\n")
        let records = try JSONLines.parse(piped.stdout).filter { $0["type"] as? String != "notification" }
        let replies = records.filter { $0["type"] as? String == "reply" }
        let error = ["ERR -113,\"Undefined header\""]
        #expect(replies.map { $0["lines"] as? [String] } == [error, error], "\(piped.stdout)")
        #expect(!records.contains { $0["type"] as? String == "settling" }, "\(piped.stdout)")
    }

    @Test(arguments: ["line", "raw"])
    func aPasteOf10000BytesArrivesWhole(mode: String) throws {
        let folder = try TemporaryFolder()
        let simulator = try Self.simulator("env", in: folder)
        defer { simulator.stop() }
        let terminal = try Self.connect(folder, ["--mode", mode, "--timeout", "100"])
        #expect(terminal.waitForScreen(containing: "\(mode) mode"))
        let text = (0..<10_000).map { String(UnicodeScalar(UInt8(0x41 + $0 % 26))) }.joined()
        try terminal.paste(text)
        terminal.press("Enter")
        let expected = text + (mode == "line" ? "\n" : "\r")
        #expect(waitUntil(timeout: 60) { Self.received(folder).hasSuffix(expected) })
        #expect(Self.received(folder).count == expected.count)
        #expect(terminal.quitsCleanly())
    }

    @Test func escapeKeyCommandsActLocallyAndNeverReachTheDevice() throws {
        let folder = try TemporaryFolder()
        let simulator = try Self.simulator("env", in: folder)
        defer { simulator.stop() }
        let log = folder.path("session.jsonl")
        let terminal = try Self.connect(folder, ["--log", log])
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.press("C-t", "?")
        #expect(terminal.waitForScreen(containing: "m  switch between raw and line mode"))
        terminal.press("C-t", "d")
        #expect(terminal.waitForScreen(containing: "DTR off"))
        terminal.press("C-t", "L")
        #expect(terminal.waitForScreen { $0.contains("modem lines: ") && !$0.contains("modem lines: DTR") })
        terminal.press("C-t", "d")
        #expect(terminal.waitForScreen(containing: "DTR on"))
        // In one burst, as a fast typist or a paste sends it: the rate goes to the
        // question, never to the device.
        terminal.press("C-t", "B", "57600", "Enter")
        #expect(terminal.waitForScreen(containing: "baud rate 57600"))
        #expect(simulator.clientAttributes.map { cfgetospeed([$0]) } == speed_t(B57600))
        terminal.press("C-t", "B")
        terminal.type("fast")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "'fast' is not a baud rate"))
        terminal.press("C-t", "b")
        #expect(terminal.waitForScreen { $0.contains("break sent (250 ms)") || $0.contains("cannot: ") })
        // The settings read back after Ctrl-T B (a settings_changed record), not those of the open.
        #expect(terminal.waitForScreen(containing: "settings now 57600 8N1"))
        terminal.press("C-t", "c")
        #expect(terminal.waitForScreen(containing: "57600 8N1, dialect line; line mode; hex off;"))
        terminal.press("C-t", "h")
        #expect(terminal.waitForScreen(containing: "hex view on"))
        terminal.type("*IDN?")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "*IDN? → 54 45 54 48 45 52"))
        terminal.press("C-t", "l")
        #expect(terminal.waitForScreen(containing: "log \(log) closed"))
        terminal.type("HUM?")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "HUM? → "))
        terminal.press("C-t", "m")
        #expect(terminal.waitForScreen { $0.split(separator: "\n").contains("raw mode") })
        let file = folder.path("upload.txt")
        try "line one\r\n\u{1}end".write(toFile: file, atomically: true, encoding: .utf8)
        terminal.press("C-t", "f")
        #expect(terminal.waitForScreen(containing: "send file:"))
        terminal.type("/nowhere")
        terminal.press("BSpace", "C-c")
        terminal.press("C-t", "f")
        terminal.type(file)
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "sent 14 bytes from \(file)"))
        // "sent" says the bytes are queued; quitting before they are written drops them
        // (docs/CONNECT.md, "How a session ends"), which this test is not about.
        #expect(waitUntil { Self.received(folder).hasSuffix("line one\r\n\u{1}end") })
        terminal.press("C-t", "q")
        #expect(terminal.waitForExit() == 0)
        #expect(Self.received(folder) == "*IDN?\nHUM?\nline one\r\n\u{1}end")
        let records = try JSONLines.parse(String(contentsOfFile: log, encoding: .utf8))
        #expect(records.contains { $0["type"] as? String == "sent" && $0["command"] as? String == "*IDN?" })
        #expect(
            records.contains {
                $0["type"] as? String == "reply" && $0["lines"] as? [String] == ["TETHER,ENV-1,SIM0001,1.0"]
            })
        #expect(!records.contains { $0["command"] as? String == "HUM?" }, "logging stopped before HUM?")
        #expect(terminal.terminalSettingsUnchanged)
    }

    /// Ctrl-T w sends exactly the bytes typed as hex pairs (picocom's C-a C-w); an
    /// answer that is not hex bytes sends nothing.
    @Test(arguments: ["line", "raw"])
    func hexBytesReachTheDeviceExactly(mode: String) throws {
        let folder = try TemporaryFolder()
        let simulator = try Self.simulator("env", in: folder)
        defer { simulator.stop() }
        let terminal = try Self.connect(folder, ["--mode", mode])
        #expect(terminal.waitForScreen(containing: "\(mode) mode"))
        terminal.press("C-t", "w")
        #expect(terminal.waitForScreen(containing: "hex bytes:"))
        terminal.type("7f 0")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "'7f 0' is not hex bytes"), "\(terminal.screen)")
        terminal.press("C-t", "w")
        terminal.type("7f 00 ff 0d 0a")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "sent 5 bytes: 7f 00 ff 0d 0a"), "\(terminal.screen)")
        let sent: [UInt8] = [0x7F, 0x00, 0xFF, 0x0D, 0x0A]
        #expect(waitUntil { TranscriptBytes.received(in: folder.path("sim.log")) == sent })
        #expect(terminal.quitsCleanly())
    }

    /// A typed line takes the escapes of commands; a line with a bad one is not sent
    /// and the screen says why.
    @Test func typedLinesTakeEscapesAndABadOneSendsNothing() throws {
        let folder = try TemporaryFolder()
        let simulator = try Self.simulator("env", in: folder)
        defer { simulator.stop() }
        let terminal = try Self.connect(folder)
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.type(#"RATE\x200"#)
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "RATE 0 → OK"), "\(terminal.screen)")
        terminal.type(#"SETP\q"#)
        terminal.press("Enter")
        #expect(
            terminal.waitForScreen(containing: #"Bad escape '\q' at position 5 in the command 'SETP\q'"#),
            "\(terminal.screen)")
        terminal.type("SETP?")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "SETP? → 22.0"))
        #expect(Self.received(folder) == "RATE 0\nSETP?\n")
        #expect(terminal.quitsCleanly())
    }

    /// From a pipe, a bad escape ends the session as a usage error, before anything
    /// after it is sent.
    @Test func aBadEscapeFromAPipeIsAUsageError() throws {
        let result = try Subprocess.run("tether", ["connect", "--sim"], stdin: "A\\q\n*IDN?\n")
        #expect(result.status == 64)
        #expect(
            result.stderr.contains(
                #"Error: Bad escape '\q' at position 2 in the command 'A\q': use \r, \n, \t, \e, \xNN (two hex digits) or \\; nothing more is sent"#
            ), "\(result.stderr)")
        #expect(!result.stdout.contains("*IDN?"), "\(result.stdout)")
    }

    /// `printf '*IDN?\n\n \nTEMP?\n' | tether connect --sim --format json` sent the space
    /// but not the empty line: it is sent as typed, the line end alone (which the
    /// simulator ignores, so it times out).
    @Test func anEmptyLineFromAPipeIsSent() throws {
        let result = try Subprocess.run(
            "tether", ["connect", "--sim", "--format", "json", "--timeout", "300"], stdin: "*IDN?\n\n \nTEMP?\n")
        #expect(result.status == 0, "\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        let sent = records.filter { $0["type"] as? String == "sent" }.compactMap { $0["command"] as? String }
        #expect(sent == ["*IDN?", "", " ", "TEMP?"], "\(result.stdout)")
    }

    /// With the device's own dialect (no console wrapper), `--hex` shows each line with
    /// the line end it came with; a blank line is framing, not a notification, and the
    /// transcript log, made from the byte stream, keeps it.
    @Test func hexShowsLineEndsAndTheTranscriptKeepsBlankLines() throws {
        let folder = try TemporaryFolder()
        let profile = folder.path("blank.json")
        try """
        {"name": "blank", "dialect": "line", "lineEnd": "\\r\\n", "commands": [{"match": "X", "reply": "x"}],
         "notifications": [{"every": 200, "send": ["tick", "", "tock"]}]}
        """.write(toFile: profile, atomically: true, encoding: .utf8)
        let log = folder.path("session.jsonl")
        let transcript = folder.path("session.txt")
        let terminal = try TmuxTerminal(
            ["tether", "connect", "--sim", "--profile", profile, "--hex", "--log", log],
            environment: ["XDG_STATE_HOME": folder.path("state")])
        #expect(terminal.waitForScreen(containing: "74 6f 63 6b 0d 0a"), "\(terminal.screen)")
        terminal.type("X")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "X → 78 0d 0a"), "\(terminal.screen)")
        #expect(terminal.quitsCleanly())
        let records = try JSONLines.parse(String(contentsOfFile: log, encoding: .utf8))
        let lines = records.filter { $0["type"] as? String == "notification" }.compactMap { $0["line"] as? String }
        #expect(lines.starts(with: ["tick", "tock"]), "\(lines)")
        let again = try TmuxTerminal(
            ["tether", "connect", "--sim", "--profile", profile, "--log", transcript],
            environment: ["XDG_STATE_HOME": folder.path("state")])
        #expect(again.waitForScreen(containing: "tock"), "\(again.screen)")
        again.type("X")
        again.press("Enter")
        #expect(again.waitForScreen(containing: "X → x"), "\(again.screen)")
        #expect(again.quitsCleanly())
        let logged = try String(contentsOfFile: transcript, encoding: .utf8)
        #expect(logged.contains("< tick\\r\\n\n"), "\(logged)")
        #expect(logged.contains("< \\r\\n\n"), "the blank line: \(logged)")
        #expect(logged.contains("> X\\n\n"), "the command as sent: \(logged)")
    }

    /// `connect --log /dev/full` ended with 74 from the view's thread and left the
    /// terminal in line mode's raw settings: the terminal is put back at any exit.
    @Test func aLogThatCannotBeWrittenLeavesTheTerminalAsItWas() throws {
        let folder = try TemporaryFolder()
        let simulator = try Self.simulator("env", in: folder)
        defer { simulator.stop() }
        let terminal = try Self.connect(folder, ["--log", "/dev/full"])
        #expect(terminal.waitForExit() == 74)
        #expect(terminal.screen.contains("Error: cannot write to /dev/full: No space left on device"))
        #expect(terminal.terminalSettingsUnchanged)
    }

    /// Ctrl-\\ in `tether connect --sim` printed the Swift runtime's crash report and
    /// went on: it ends connect as Ctrl-C does, with 131, the terminal put back.
    @Test func ctrlBackslashEndsConnectWith131() throws {
        let folder = try TemporaryFolder()
        let simulator = try Self.simulator("env", in: folder)
        defer { simulator.stop() }
        let terminal = try Self.connect(folder, [])
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.press("C-\\")
        #expect(terminal.waitForExit() == 131)
        #expect(!terminal.screen.contains("crashed"), "\(terminal.screen)")
        #expect(terminal.terminalSettingsUnchanged)
    }

    /// Signals in raw mode, where tether itself turned the terminal's signals off.
    @Test(arguments: [("TERM", 143), ("INT", 130), ("QUIT", 131)])
    func aSignalInRawModeLeavesTheTerminalAsItWas(signal: String, expected: Int) throws {
        let folder = try TemporaryFolder()
        let simulator = try Self.simulator("prompt-console", in: folder)
        defer { simulator.stop() }
        let terminal = try Self.connect(folder, ["--mode", "raw"])
        #expect(terminal.waitForScreen(containing: "raw mode"))
        let pid = try #require(terminal.tetherPID)
        _ = try Subprocess.run(path: "/bin/kill", ["-\(signal)", "\(pid)"])
        #expect(terminal.waitForExit() == expected)
        #expect(terminal.terminalSettingsUnchanged)
    }

    /// The device hangs up while the terminal is raw.
    @Test func theDeviceHangingUpInRawModeEndsWithIOErrorAndRestoresTheTerminal() throws {
        let folder = try TemporaryFolder()
        let simulator = try Self.simulator("prompt-console", in: folder)
        let terminal = try Self.connect(folder, ["--mode", "raw", "--no-reconnect"])
        #expect(terminal.waitForScreen(containing: "raw mode"))
        simulator.stop()
        #expect(terminal.waitForExit() == 74)
        #expect(terminal.screen.contains("disconnected: "))
        #expect(terminal.terminalSettingsUnchanged)
    }

    /// The device goes away and comes back: the session, its history and the text being
    /// typed stay; the screen says what happened.
    @Test func reconnectKeepsTheSession() throws {
        let folder = try TemporaryFolder()
        let first = try Self.simulator("env", in: folder)
        let terminal = try Self.connect(folder)
        #expect(terminal.waitForScreen(containing: "line mode"))
        terminal.type("RATE 0")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "RATE 0 → OK"))
        terminal.type("SETP")
        first.stop()
        #expect(terminal.waitForScreen(containing: "reconnecting: waiting for"))
        let second = try Simulator(device: SimulatorProfiles.device(named: "env"), link: folder.path("device"))
        defer { second.stop() }
        #expect(terminal.waitForScreen(containing: "reconnected to"))
        #expect(terminal.screen.split(separator: "\n").last == "> SETP", "\(terminal.screen)")
        terminal.type("?")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "SETP? → 22.0"))
        #expect(terminal.quitsCleanly())
    }

    /// The settings `c` shows are the port's, read back, not the ones asked for: a pty
    /// keeps no parity, and the warning says so on the screen.
    @Test func settingsShowWhatThePortHas() throws {
        let folder = try TemporaryFolder()
        let simulator = try Self.simulator("env", in: folder)
        defer { simulator.stop() }
        let terminal = try Self.connect(folder, ["--parity", "odd", "--baud", "250000"])
        #expect(terminal.waitForScreen(containing: "parity odd was asked for, the port has none"), "\(terminal.screen)")
        terminal.press("C-t", "c")
        #expect(terminal.waitForScreen(containing: "250000 8N1, dialect line; line mode;"), "\(terminal.screen)")
        #expect(terminal.quitsCleanly())
    }

    @Test func rawModeEchoesTypedKeysWhenAsked() throws {
        let folder = try TemporaryFolder()
        let simulator = try Self.simulator("env", in: folder)
        defer { simulator.stop() }
        let terminal = try Self.connect(folder, ["--mode", "raw", "--echo", "--enter", "lf"])
        #expect(terminal.waitForScreen(containing: "raw mode"))
        terminal.type("SETP?")
        terminal.press("Enter")
        #expect(terminal.waitForScreen(containing: "SETP?\n22.0"), "\(terminal.screen)")
        #expect(waitUntil { Self.received(folder) == "SETP?\n" })
        #expect(terminal.quitsCleanly())
    }

    @Test(arguments: [
        (
            ["--escape", "t"],
            "Error: The value 't' is invalid for '--escape <key>'. Please provide a control key such as 'ctrl-t', 'ctrl-a' or '^]'."
        ),
        (
            ["--mode", "cooked"],
            "Error: The value 'cooked' is invalid for '--mode <mode>'. Please provide one of 'raw', 'line'."
        ),
        (
            ["--enter", "lfcr"],
            "Error: The value 'lfcr' is invalid for '--enter <eol>'. Please provide one of 'cr', 'lf', 'crlf'."
        ),
        (
            ["--map", "CRLF"],
            "Error: The value 'CRLF' is invalid for '--map <flags>'. Please provide flags separated by commas from 'ICRNL', 'IGNCR', 'INLCR', 'INLCRNL', 'OCRNL', 'ONLCRNL', 'OIGNCR', 'ODELBS', 'OLTU'."
        ),
        (
            ["--color", "sometimes"],
            "Error: The value 'sometimes' is invalid for '--color <when>'. Please provide one of 'never', 'auto', 'always'."
        ),
        (
            ["--init-string", "AT\\q"],
            "Error: The value 'AT\\q' is invalid for '--init-string <text>'. Bad escape '\\q' at position 3 in the command 'AT\\q': use \\r, \\n, \\t, \\e, \\xNN (two hex digits) or \\\\."
        ),
    ])
    func badConsoleOptionsAreUsageErrors(arguments: [String], message: String) throws {
        let result = try Subprocess.run("tether", ["connect", "--sim"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr == message + " (see 'tether connect --help')\n")
    }
}
