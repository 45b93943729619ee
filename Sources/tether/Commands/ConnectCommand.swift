import Synchronization
import TetherCommandLine
import TetherConnection
import TetherConsole
import TetherModel
import TetherPresenter
import TetherViews

/// `tether connect`: an interactive session, as a terminal program (picocom, tio).
enum ConnectCommand: Command {
    static let spec = CommandSpec(
        program: "tether", name: "connect",
        abstract: "Work with a device interactively.",
        discussion: """
            Two modes, switched during the session with Ctrl-T m:
              raw   every key goes to the device as typed (Tab, arrows), Ctrl-C at once,
                    ahead of what waits to be sent; every byte received is shown as it
                    arrives: text, colour, cursor movement, erase, scrolling and the
                    modes a full-screen program needs pass; queries the terminal would
                    answer to the device (ESC[6n, ESC[c, ESC[21t), printer mode, OSC and
                    C1 controls are shown escaped (docs/CONNECT.md, "Raw mode"). The
                    default for --dialect prompt.
              line  line editing and history (Up/Down, Left/Right, Ctrl-R) kept in
                    $XDG_STATE_HOME/tether/history; Enter sends the line (an empty one
                    sends just the line end); replies are shown with their round trip and
                    notifications above the line being typed. The default otherwise; with
                    no --mode and the line dialect, a console's prompt (text such as '=> ',
                    '# ' or 'uart:~$ ' after a line end, then quiet) switches to raw, said
                    once (docs/CONNECT.md).
            Lines, typed or from a pipe, take the escapes of commands: \\r \\n \\t \\e (ESC),
            \\xNN (hex) and \\\\ (a backslash); a line with a bad one is not sent.
            The escape key (Ctrl-T) followed by a key runs a local command that never
            reaches the device (KEYS below): Ctrl-T ? lists them, Ctrl-T q quits (exit 0).
            At Ctrl-T y, x and f's file question Tab completes and ~ is your home; a
            transfer's progress line shows, and Ctrl-C, Escape or Ctrl-T cancels it
            (CAN CAN). In line mode Ctrl-D on an empty line and Ctrl-C quit too
            (exit 0 and 130). The terminal is left as it was found, however tether ends,
            with whatever the device changed in raw mode undone (docs/CONNECT.md).
            Without a terminal (input from a pipe, output to a file, --format json), each
            input line is sent as a command in turn; --mode raw, --escape, --echo,
            --map-cr, --enter and --map need the terminal, and are refused there
            (exit 64); --color applies to the text on standard output.

            EXAMPLES:
              tether connect --sim
              tether connect /dev/ttyUSB0 --dialect prompt --prompt '=> ' --log session.jsonl
            """,
        arguments: [
            ArgumentSpec(
                name: "port", help: ConnectionOptions.portHelp,
                isOptional: true)
        ],
        options: [ConnectionOptions.format(showing: .eventLog).declaration] + ConsoleOptions.everyday,
        groups: [ConsoleTuningOptions.self] + ConnectionOptions.sendingGroups(reconnects: true),
        usage: "tether connect (<port> | --sim) [--mode raw|line] [--log <file>] [<options>]",
        epilogue: ConsoleOptions.keysHelp
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let options = try ConnectionOptions(portOrSimulator: arguments)
        let console = ConsoleOptions(arguments)
        let savedTerminal = TerminalState.save()
        defer { savedTerminal?.restore() }
        guard options.format == .text,
            let terminal = ConsoleTerminal(
                mode: console.mode ?? .line, escape: console.escape, historyPath: LineEditor.historyPath())
        else {
            if let option = console.terminalOnlyOption {
                throw UsageError(
                    "'\(option)' needs a terminal on standard input and output and text output; without them "
                        + "connect sends each input line as a command")
            }
            return try await runFromPipe(options, console: console)
        }
        let log = try options.logFile(showing: .eventLog)
        let view = ConsoleView(
            terminal: terminal,
            settings: ConsoleView.Settings(
                mode: terminal.mode, showsHex: options.showsHex, showsTimestamps: options.showsTimestamps,
                log: log?.view, logPath: options.log, timestampStyle: options.timestampStyle),
            mapsCR: console.mapsCR, map: console.map)
        var connectionOptions = options
        connectionOptions.log = nil  // the console view writes it
        let connection = try await Connection(connectionOptions, view: view)
        log?.whenWriteFails { [device = connection.device] in device.stop(reason: LogFileStop.reason) }
        let share = try share(console, connection.device)
        defer { share?.stop() }
        if !options.isQuiet {
            view.hint(atFirstContact: FirstContactHint(sending: connection.terminator, dialect: connection.dialectName))
        }
        let chosen = console.mode ?? (connection.dialectName == PromptDialect.kind.name ? .raw : .line)
        terminal.mode = chosen
        terminal.echoesLocally = console.echoes
        view.settings.withLock { settings in
            settings.mode = chosen
            settings.colour = console.color
            // A line device keeps line mode; a console (a prompt after its output, then
            // quiet) gets raw mode, said once (docs/CONNECT.md, "Which mode").
            settings.switchesAtPrompt = console.mode == nil && connection.dialectName == LineDialect.kind.name
        }
        let session = Console(
            terminal: terminal, view: view, device: connection.device, timeout: options.timeout,
            escape: console.escape, enter: console.enter, logPath: options.log, portName: connection.displayName,
            dialectName: connection.dialectName, map: console.map)
        // Also when the session ends by an error: the device's terminal modes are undone
        // as the terminal thread ends.
        defer { terminal.stop() }
        let timeout = options.timeout
        let code = try await connection.runUntilStopped(includesBytes: true) { [device = connection.device] stop in
            if let initString = console.initString { _ = device.send(bytes: initString, timeout: timeout) }
            stop.yield(await session.run() == .hungUp ? .hangUpSignal : .success)
        }
        try log?.check()
        return code
    }

    /// `--socket`, `--pty`: the session shared (``SessionShare``), its paths said on
    /// standard error; `nil` when neither is given.
    ///
    /// - Throws: ``CommandFailure`` (73) when the socket or pty cannot be made.
    private static func share(_ console: ConsoleOptions, _ device: Device) throws(CommandFailure) -> SessionShare? {
        do {
            let share = try SessionShare.sharing(device, socketPath: console.socket, pty: console.pty)
            for path in [share?.socketPath.map { "unix:\($0)" }, share?.ptyPath].compactMap({ $0 }) {
                FileSink.standardError.write("sharing the session on \(path)\n")
            }
            return share
        } catch {
            throw CommandFailure("cannot share the session: \(error)", code: .cannotCreateLog)
        }
    }

    /// Input from a pipe or file (or JSON output): ``PipedConsole``, after
    /// `--init-string`; a bad escape ends the session (exit 64).
    private static func runFromPipe(_ options: ConnectionOptions, console: ConsoleOptions) async throws -> ExitCode {
        var options = options
        options.colour = console.color
        let connection = try await Connection(options)
        let device = connection.device
        let initString = console.initString
        let share = try share(console, device)
        defer { share?.stop() }
        let timeout = options.timeout
        // Nothing is sent before the session's first record (`connected`) is shown: a
        // `--log` file that cannot take it ends the session there.
        let (shown, show) = AsyncStream.makeStream(of: Void.self)
        let hint = FirstContactHint(sending: connection.terminator, dialect: connection.dialectName)
        let isQuiet = options.isQuiet
        let observe: @Sendable (ViewRecord, ViewState, Connection.Stop) -> Void = { record, _, _ in
            show.yield()
            // Said on standard error, where the timeouts' view is not: it is not output.
            switch record.event {
            case .exchanged(let exchange):
                switch exchange.outcome {
                case .reply: hint.noteReceived()
                case .timedOut where !isQuiet:
                    hint.afterTimeout().map { FileSink.standardError.write($0 + "\n") }
                case .timedOut: break
                case .failed: break
                }
            case .notification, .partialReply, .lateReply, .pendingText:
                hint.noteReceived()
            default:
                break
            }
        }
        return try await connection.runUntilStopped(observe: observe) { stop in
            for await _ in shown { break }
            if let initString { _ = device.send(bytes: initString, timeout: timeout) }
            switch await PipedConsole.run(
                StandardInput.lines(), send: { _ = try? await device.query(bytes: $0, timeout: timeout) })
            {
            case .inputEnded: stop.yield(.success)
            case .hungUp: stop.yield(.hangUpSignal)
            case .badEscape(let error):
                FileSink.standardError.write("Error: \(error); nothing more is sent\n")
                stop.yield(.usage)
            }
        }
    }
}
