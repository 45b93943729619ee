import FoundationEssentials
import Glibc
import Synchronization
import TetherLibC
import TetherModel
import TetherSerial
import TetherViews

/// The mediator of an interactive `connect` session: it takes what the user types from
/// the terminal (``ConsoleScreen``), sends lines and keystrokes to the device
/// (``ConsoleDevice``), and runs the escape key's local commands (``LocalCommand``) on
/// the terminal, the ``ConsoleView`` and the log. The terminal, the view and the
/// device never know each other.
public struct Console: Sendable {
    /// Why a session ended.
    public enum End: Equatable, Sendable {
        /// The escape key's `q`.
        case quit
        /// The input ended: Ctrl-D on an empty line in line mode.
        case inputEnded
        /// The terminal hung up (its end of input came without Ctrl-D).
        case hungUp
    }

    let terminal: any ConsoleScreen
    let view: ConsoleView
    let device: any ConsoleDevice
    /// The reply timeout of typed lines.
    let timeout: Duration?
    /// The escape key's byte.
    let escape: UInt8
    /// What Enter sends in raw mode.
    let enter: EnterKey
    /// `--log`, the file `l` starts when none is open.
    let logPath: String?
    /// The port's name, for `c`.
    let portName: String
    /// The dialect's name, for `c`.
    let dialectName: String
    /// `--map`: what typed keys and lines become before they are sent.
    let map: CharacterMap

    /// A session of `device` on `terminal`, shown by `view`.
    ///
    /// - Parameters:
    ///   - timeout: how long a typed line waits for its reply; `nil` for no deadline.
    ///   - escape: the escape key's byte (Ctrl-T is 0x14).
    ///   - enter: what Enter sends in raw mode.
    ///   - logPath: the file the escape key's `l` logs to (JSON Lines) when no log is
    ///     open; `nil`: `tether-DATE.jsonl` (``defaultLogName(_:)``).
    ///   - portName: the port's name, as the escape key's `c` shows it.
    ///   - dialectName: the dialect's name, as `c` shows it.
    ///   - map: `--map`'s flags for what is typed (raw mode's keys after `enter`'s
    ///     mapping, line mode's lines before their line end).
    public init(
        terminal: any ConsoleScreen, view: ConsoleView, device: any ConsoleDevice, timeout: Duration?,
        escape: UInt8, enter: EnterKey, logPath: String?, portName: String, dialectName: String,
        map: CharacterMap = CharacterMap()
    ) {
        self.map = map
        self.terminal = terminal
        self.view = view
        self.device = device
        self.timeout = timeout
        self.escape = escape
        self.enter = enter
        self.logPath = logPath
        self.portName = portName
        self.dialectName = dialectName
    }

    /// Starts the terminal and runs until the user quits or the input ends.
    public func run() async -> End {
        terminal.start()
        terminal.write(
            "\(terminal.mode) mode; \(EscapeKeyFilter.name(of: escape)) ? lists the local commands, "
                + "\(EscapeKeyFilter.name(of: escape)) q quits.\n")
        for await input in terminal.inputs {
            switch input {
            case .line(let line):
                sendLine(line)
            case .keystrokes(let keys):
                sendKeys(map.typed(enter.mapping(keys)))
            case .command(let key):
                if await perform(key) == .quit { return .quit }
            case .sendFile(let path):
                await sendFile(at: path)
            case .changeBaudRate(let text):
                await changeBaudRate(to: text)
            case .runReset(let text):
                await runReset(text)
            case .sendHex(let text):
                sendHex(text)
            case .sendByProtocol(let path, let kind):
                await transferFile(at: path, by: kind)
            case .receiveByProtocol(let kind):
                await receiveFiles(by: kind)
            case .promptSeen:
                switchToRawAtPrompt()
            case .end(let hungUp):
                return hungUp ? .hungUp : .inputEnded
            }
        }
        return .inputEnded
    }

    /// Says once that a console's prompt made the mode raw, then shows what line mode
    /// has not shown yet, the prompt last, as raw mode does: what picocom shows from
    /// here on.
    private func switchToRawAtPrompt() {
        let (prompt, unshown) = view.switchToRawAtPrompt()
        let name = EscapeKeyFilter.name(of: escape)
        terminal.write(
            "\(Quoted(ByteEscaping.escaped(prompt))) looks like a console's prompt: raw mode (keys as typed); "
                + "\(name) m for line mode\n")
        view.showRaw(unshown)
    }

    /// Sends keys typed in raw mode: Ctrl-C at once (``InterruptKey``), the others in
    /// order.
    private func sendKeys(_ keys: [UInt8]) {
        for piece in InterruptKey.pieces(of: keys) {
            switch piece {
            case .inOrder(let bytes): device.sendBytes(bytes)
            case .now(let bytes): device.sendNow(bytes)
            }
        }
    }

    /// Sends a typed line, its escapes decoded (``CommandText/bytes(fromEscaped:)``:
    /// `\r \n \t \e \xNN \\`); nothing when one is bad.
    private func sendLine(_ line: String) {
        do {
            device.sendLine(map.typed(try CommandText.bytes(fromEscaped: line)), timeout: timeout)
        } catch {
            terminal.write("\(error); nothing sent\n")
        }
    }

    /// Runs the local command of `key`; returns it.
    @discardableResult
    func perform(_ key: UInt8) async -> LocalCommand? {
        guard let command = LocalCommand(key: key) else {
            let name = EscapeKeyFilter.name(of: escape)
            terminal.write("unknown local command '\(ByteEscaping.escaped([key]))'; \(name) ? lists them\n")
            return nil
        }
        switch command {
        case .help:
            terminal.write(LocalCommand.help(escape: escape))
        case .quit:
            break
        case .showSettings:
            let settings = view.settings.withLock { $0 }
            let log = settings.logPath.map { "log \($0)" } ?? "no log"
            terminal.write(
                "\(portName) \(settings.portSettings ?? "(not connected)"), dialect \(dialectName); \(terminal.mode) mode; hex \(settings.showsHex ? "on" : "off"); "
                    + "timestamps \(settings.showsTimestamps ? "on" : "off"); "
                    + "local echo \(terminal.echoesLocally ? "on" : "off"); \(log)\n")
        case .toggleHex:
            let on = view.settings.withLock { settings in
                settings.showsHex.toggle()
                return settings.showsHex
            }
            terminal.write("hex view \(on ? "on" : "off")\n")
        case .toggleTimestamps:
            let on = view.settings.withLock { settings in
                settings.showsTimestamps.toggle()
                return settings.showsTimestamps
            }
            terminal.write("timestamps \(on ? "on" : "off")\n")
        case .toggleLocalEcho:
            terminal.echoesLocally.toggle()
            terminal.write("local echo \(terminal.echoesLocally ? "on" : "off")\n")
        case .toggleLog:
            toggleLog()
        case .sendFile:
            break  // the terminal asks for the path first (.sendFile)
        case .switchMode:
            let mode = terminal.mode  // switched by the terminal as the key was read
            view.settings.withLock { settings in
                settings.mode = mode
                settings.switchesAtPrompt = false  // the user chose
            }
            if mode == .line { view.undoDeviceModes() }
            terminal.write("\(mode) mode\n")
        case .sendBreak:
            await control("break sent (250 ms)") { (line) throws(SerialError) in try line.sendBreak(milliseconds: 250) }
        case .toggleDTR:
            await control { (line) throws(SerialError) -> String in
                let isOn = try !line.modemLines().contains(.dtr)
                try line.setDTR(isOn)
                return "DTR \(isOn ? "on" : "off")"
            }
        case .toggleRTS:
            await control { (line) throws(SerialError) -> String in
                let isOn = try !line.modemLines().contains(.rts)
                try line.setRTS(isOn)
                return "RTS \(isOn ? "on" : "off")"
            }
        case .pulseDTR:
            await control("DTR pulsed (off 100 ms, then on)") { (line) throws(SerialError) in
                try line.pulseDTR(milliseconds: 100)
            }
        case .showModemLines:
            await control { (line) throws(SerialError) -> String in
                let lines = try line.modemLines()
                return "modem lines: \(lines.isEmpty ? "none asserted" : lines.description)"
            }
        case .changeBaudRate:
            break  // the terminal asks for the rate first (.changeBaudRate)
        case .runReset:
            break  // the terminal asks for the sequence first (.runReset)
        case .sendHex:
            break  // the terminal asks for the bytes first (.sendHex)
        case .sendByYModem, .sendByXModem:
            break  // the terminal asks for the file first (.sendByProtocol)
        case .receiveByYModem:
            break  // the terminal reports it as .receiveByProtocol
        }
        return command
    }

    /// Runs `body` with the port's line control on the port loop and shows what it
    /// returns, or why it failed.
    private func control(_ body: @escaping @Sendable (any LineControl) throws(SerialError) -> String) async {
        do {
            terminal.write(try await device.withLineControl(body) + "\n")
        } catch {
            terminal.write("cannot: \(error)\n")
        }
    }

    private func control(
        _ done: String, _ body: @escaping @Sendable (any LineControl) throws(SerialError) -> Void
    ) async {
        await control { (line) throws(SerialError) -> String in
            try body(line)
            return done
        }
    }

    /// Sets the baud rate typed after `B` (and keeps it for a reconnect), and shows what
    /// the port reports having then, as `c` does from then on.
    private func changeBaudRate(to text: String) async {
        guard let rate = Int(text.trimmingWhitespace()), rate > 0, rate <= Int(Int32.max) else {
            terminal.write("\(Quoted(text)) is not a baud rate (a whole number of bit/s, e.g. 115200)\n")
            return
        }
        do {
            let report = try await device.setBaudRate(rate)
            guard let actual = report.actual else {
                terminal.write("baud rate \(rate) set; the port does not report its settings\n")
                return
            }
            view.settings.withLock { $0.portSettings = actual.summary }
            terminal.write("baud rate \(rate) set; the port reports \(actual.summary)\n")
        } catch {
            terminal.write("cannot set the baud rate to \(rate): \(error)\n")
        }
    }

    /// Runs the reset sequence typed after `R`: a name or esptool's steps
    /// (docs/HARDWARE.md, "Reset sequences").
    private func runReset(_ text: String) async {
        let sequence: LineSequence
        do throws(LineSequence.ParseError) {
            sequence = try LineSequence.parse(text.trimmingWhitespace())
        } catch {
            terminal.write("\(error)\n")
            return
        }
        do {
            try await device.run(sequence)
            terminal.write("reset \(sequence.name) done\n")
        } catch {
            terminal.write("cannot run \(sequence.name): \(error)\n")
        }
    }

    /// Sends the bytes of the file at `path` as they are (no terminator added), in
    /// pieces of ``filePiece`` bytes, so each write finishes well within the device's
    /// write timeout even at a low baud rate.
    private func sendFile(at path: String) async {
        guard let bytes = FileSystem.contents(atPath: path) else {
            terminal.write("cannot read \(path)\n")
            return
        }
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + Self.filePiece, bytes.count)
            device.sendBytes(Array(bytes[offset..<end]))
            offset = end
        }
        terminal.write("sent \(bytes.count) bytes from \(path)\n")
    }

    /// Sends the bytes typed after `w` as hex pairs (``HexBytes``), exactly those, and
    /// shows the first ``shownHexBytes`` of them; nothing when one is not a pair of hex
    /// digits.
    private func sendHex(_ text: String) {
        guard let bytes = HexBytes(parsing: text) else {
            terminal.write("\(Quoted(text)) is not hex bytes (pairs of hex digits, e.g. 7f 00 ff); nothing sent\n")
            return
        }
        device.sendBytes(bytes.bytes)
        let shown = ByteEscaping.hex(bytes.bytes, atMost: Self.shownHexBytes)
        terminal.write("sent \(bytes.bytes.count) bytes: \(shown)\n")
    }

    /// The most sent hex bytes `w` shows: 16, as the text view shows a payload.
    static let shownHexBytes = 16

    /// The most bytes of a sent file in one write.
    static let filePiece = 128

    private func toggleLog() {
        let open = view.settings.withLock { $0.logPath }
        if let open {
            view.settings.withLock { settings in
                settings.log = nil
                settings.logPath = nil
            }
            terminal.write("log \(open) closed\n")
            return
        }
        let path = logPath ?? Self.defaultLogName(Date())
        do {
            // A write that fails later stops this log and says so: the user started it
            // here and sees the message (a --log given on the command line ends the
            // session instead, see LogFile).
            let view = self.view
            let terminal = self.terminal
            let sink = try FileSink.appending(toFile: path) { reason in
                view.settings.withLock { settings in
                    guard settings.logPath == path else { return }
                    settings.log = nil
                    settings.logPath = nil
                }
                terminal.write("cannot write to \(path): \(reason); the log is stopped\n")
            }
            let style = view.settings.withLock { $0.timestampStyle }
            let log = try OutputFormat.forLog(path).make(.eventLog, ViewSettings(timestampStyle: style, output: sink))
            view.settings.withLock { settings in
                settings.log = log
                settings.logPath = path
            }
            terminal.write("logging to \(path)\n")
        } catch {
            terminal.write("cannot open the log file \(error)\n")
        }
    }

    /// `tether-20261130-104117.jsonl`, local time.
    public static func defaultLogName(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var local = tm()
        localtime_r(&seconds, &local)
        return CFormat.string(
            "tether-%04d%02d%02d-%02d%02d%02d.jsonl", local.tm_year + 1900, local.tm_mon + 1, local.tm_mday,
            local.tm_hour, local.tm_min, local.tm_sec)
    }
}
