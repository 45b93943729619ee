import CScreenRestore
import Dispatch
import Glibc
import Synchronization
import TetherLibC
import TetherModel
import TetherSerial
import TetherTransfer
import TetherViews

/// The user's terminal during `connect`: one thread reads the keyboard — through
/// ``LineEditor`` in line mode, byte by byte in raw mode — and writes everything shown,
/// so device output never lands inside the text being typed: in line mode it is
/// written above the input line, which is then drawn again intact.
///
/// Other threads hand it text with ``write(_:)`` (it is the connect view's
/// ``OutputSink``) and bytes with ``writeBytes(_:)``; what was typed comes out of
/// ``inputs`` in order. The terminal settings found at start are put back when the
/// thread ends, and again by the caller's ``TerminalState`` whatever happens.
///
/// The terminal is standard input and output, or the descriptors given (a pty in tests).
public final class ConsoleTerminal: ConsoleScreen, @unchecked Sendable {
    /// Output waiting for the terminal thread.
    private struct Chunk {
        var bytes: [UInt8]
        /// Whole lines (a view's or a message): begun on a fresh line in raw mode.
        var isLines: Bool
    }

    private struct Shared {
        var output: [Chunk] = []
        var mode: ConsoleMode
        var isStopping = false
        var echoesLocally = false
        /// Line mode: text received after the last line end, and when to show it.
        var tail: (text: String, due: ContinuousClock.Instant, switchesToRaw: Bool)?
        /// Written when the terminal stops (``undoOnExit(_:)``).
        var undo: [UInt8] = []
        /// The file transfer being shown, if any.
        var transfer: Transfer?
    }

    /// A file transfer the terminal shows (``showTransfer(_:)``).
    private struct Transfer {
        /// The status line to show; `nil` before the first.
        var line: String?
        /// What cancels it (``onTransferCancel(_:)``).
        var cancel: (@Sendable () -> Void)?
        /// Whether a cancelling key was typed.
        var isCancelled = false
    }

    /// How long received bytes without a line end (a prompt) must be quiet before line
    /// mode shows them.
    static let tailDelay = Duration.milliseconds(300)

    /// What was typed, in order; ends when the terminal thread ends.
    public let inputs: AsyncStream<ConsoleInput>
    public let isTerminal = true
    private let continuation: AsyncStream<ConsoleInput>.Continuation
    private let input: Int32
    private let output: Int32
    private let shared: Mutex<Shared>
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let saved: termios
    private let historyPath: String?
    private let finished = DispatchSemaphore(value: 0)
    // Used only on the terminal thread:
    private var escapeFilter: EscapeKeyFilter
    private var typed = UTF8Decoder()
    private var pendingScalars: [UnicodeScalar] = []
    /// Line mode: typed bytes from a local command on, held until libedit has read the
    /// keys typed before it (``feed(_:keys:)``).
    private var heldBack: [UInt8] = []
    private var editor: LineEditor?
    private var isAtLineStart = true

    /// Prepares the terminal on `input` and `output`; `nil` unless both are one.
    ///
    /// - Parameters:
    ///   - mode: the mode to start in.
    ///   - escape: the escape key's byte (Ctrl-T is 0x14).
    ///   - historyPath: line mode's history file (``LineEditor/historyPath(environment:)``).
    ///   - input: the keyboard's descriptor, standard input by default.
    ///   - output: the screen's descriptor, standard output by default.
    public init?(
        mode: ConsoleMode, escape: UInt8, historyPath: String?, input: Int32 = STDIN_FILENO,
        output: Int32 = STDOUT_FILENO
    ) {
        var settings = termios()
        guard isatty(input) == 1, isatty(output) == 1, tcgetattr(input, &settings) == 0 else {
            return nil
        }
        self.input = input
        self.output = output
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        saved = settings
        wakeRead = ends[0]
        wakeWrite = ends[1]
        shared = Mutex(Shared(mode: mode))
        escapeFilter = EscapeKeyFilter(escape: escape)
        self.historyPath = historyPath
        (inputs, continuation) = AsyncStream.makeStream(of: ConsoleInput.self)
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// The mode in force.
    public var mode: ConsoleMode {
        get { shared.withLock { $0.mode } }
        set {
            shared.withLock { $0.mode = newValue }
            wake()
        }
    }

    /// Whether typed keys are also shown (raw mode; the device may echo them itself).
    public var echoesLocally: Bool {
        get { shared.withLock { $0.echoesLocally } }
        set { shared.withLock { $0.echoesLocally = newValue } }
    }

    /// Starts the terminal thread. Ctrl-Z is ignored meanwhile: a suspended tether would
    /// leave the shell with the terminal in tether's mode (raw mode sends it to the
    /// device anyway).
    public func start() {
        signal(SIGTSTP, SIG_IGN)
        // A signal that ends tether without a clean exit (SIGUSR1, SIGALRM, SIGPIPE, a
        // crash) still puts the terminal settings back, and undoes the device's modes.
        var settings = saved
        _ = tether_screen_restore_arm_settings(input, &settings, MemoryLayout<termios>.size)
        let started = DedicatedThread.start { [self] in
            run()
            finished.signal()
        }
        if !started { finished.signal() }
    }

    /// Ends the terminal thread and waits (at most 2 s) until the terminal settings are
    /// back as found.
    public func stop() {
        shared.withLock { $0.isStopping = true }
        wake()
        _ = finished.wait(timeout: .now() + 2)
        signal(SIGTSTP, SIG_DFL)
    }

    /// Shows `text`, whole lines (a view's output or a message; `\n` ends a line),
    /// begun on a fresh line.
    public func write(_ text: String) {
        enqueue(Chunk(bytes: Array(text.utf8), isLines: true))
    }

    /// Shows `bytes` as they are, where the last output ended (received bytes in raw
    /// mode, already made safe by the caller).
    public func writeBytes(_ bytes: [UInt8]) {
        enqueue(Chunk(bytes: bytes, isLines: false))
    }

    public func undoOnExit(_ bytes: [UInt8]) {
        shared.withLock { $0.undo = bytes }
        _ = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { tether_screen_restore_arm(output, $0.baseAddress, $0.count) }
        }
    }

    private func enqueue(_ chunk: Chunk) {
        guard !chunk.bytes.isEmpty else { return }
        shared.withLock { $0.output.append(chunk) }
        wake()
    }

    /// Line mode: `text` (received after the last line end, e.g. a prompt) is shown
    /// above the input line once nothing more arrived for ``tailDelay``, or with
    /// `switchesToRaw` the mode becomes raw then and ``ConsoleInput/promptSeen`` is
    /// reported; `nil` when a line end came (the Model then reports the whole line).
    public func holdTail(_ text: String?, switchesToRaw: Bool) {
        shared.withLock { $0.tail = text.map { ($0, .now + Self.tailDelay, switchesToRaw) } }
        wake()
    }

    public func onTransferCancel(_ cancel: @escaping @Sendable () -> Void) {
        let isCancelled = shared.withLock { shared in
            shared.transfer?.cancel = cancel
            return shared.transfer?.isCancelled == true
        }
        if isCancelled { cancel() }
    }

    public func showTransfer(_ line: String) {
        shared.withLock { $0.transfer?.line = line }
        wake()
    }

    public func endTransfer() {
        shared.withLock { $0.transfer = nil }
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    private var isStopping: Bool { shared.withLock { $0.isStopping } }

    // MARK: The terminal thread

    private func run() {
        while !isStopping {
            switch mode {
            case .raw: runRaw()
            case .line: runLine()
            }
        }
        editor = nil
        var settings = saved
        tcsetattr(input, TCSANOW, &settings)
        flushOutput(aboveLine: false)
        writeAll(shared.withLock { $0.undo })
        tether_screen_restore_disarm()
        if !isAtLineStart { writeAll([0x0D, 0x0A]) }  // the shell's prompt starts on a line of its own
        continuation.finish()
    }

    private func runRaw() {
        var raw = saved
        raw.c_iflag &= ~tcflag_t(IXON | IXOFF | ICRNL | INLCR | IGNCR | ISTRIP | BRKINT)
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(input, TCSANOW, &raw)
        defer {
            var settings = saved
            tcsetattr(input, TCSANOW, &settings)
        }
        while !isStopping && mode == .raw {
            guard let bytes = waitForKeys(.inline) else { continue }
            feed(bytes) { keys in
                continuation.yield(.keystrokes(keys))
                if echoesLocally { writeBytes(Array(Self.echo(of: keys).utf8)) }
            }
        }
    }

    /// Passes typed bytes through the escape key's filter: keys go to `keys`, local
    /// commands run. A command that asks a question (`f`, `B`, `w`) takes the keys typed
    /// right after it — a paste, fast typing — as the start of its answer, so they
    /// never reach the device; what follows the answer is fed again.
    private func feed(_ bytes: [UInt8], keys: ([UInt8]) -> Void) {
        var outputs = escapeFilter.feed(bytes)[...]
        while let output = outputs.popFirst() {
            switch output {
            case .bytes(let typed):
                keys(typed)
            case .command(let key):
                if mode == .line && !pendingScalars.isEmpty {
                    // Keys typed before it in the same read (a line and its Enter) are not
                    // read by libedit yet: their line is sent first, then this runs.
                    heldBack = [escapeFilter.escape, key] + Self.typed(outputs, escape: escapeFilter.escape)
                    return
                }
                guard LocalCommand(key: key)?.question != nil else {
                    command(key)
                    continue
                }
                let typedAhead = outputs.flatMap { output -> [UInt8] in
                    if case .bytes(let typed) = output { typed } else { [] }
                }
                let leftover = command(key, typedAhead: typedAhead)
                if !leftover.isEmpty { feed(leftover, keys: keys) }
                return
            }
        }
    }

    /// The bytes that gave `outputs` (the escape key doubled where it was sent itself).
    private static func typed(_ outputs: ArraySlice<EscapeKeyFilter.Output>, escape: UInt8) -> [UInt8] {
        outputs.flatMap { output -> [UInt8] in
            switch output {
            case .bytes(let bytes): bytes.flatMap { $0 == escape ? [escape, escape] : [$0] }
            case .command(let key): [escape, key]
            }
        }
    }

    /// Passes on a local command's key. The mode switches here at once, so keys typed
    /// right after it are read in the new mode; a command with a question (`f`: the
    /// file, `B`: the baud rate, `w`: hex bytes) asks it first, starting with
    /// `typedAhead`, and is passed on with a non-empty answer.
    ///
    /// - Returns: the typed-ahead bytes left after the answer.
    @discardableResult
    private func command(_ key: UInt8, typedAhead: [UInt8] = []) -> [UInt8] {
        let command = LocalCommand(key: key)
        if command == .switchMode { shared.withLock { $0.mode = $0.mode == .raw ? .line : .raw } }
        if command == .receiveByYModem, let kind = command?.transferProtocol {
            showTransfer(startsLine: true) { continuation.yield(.receiveByProtocol(kind)) }
            return []
        }
        guard let command, let question = command.question else {
            continuation.yield(.command(key: key))
            return []
        }
        let (typed, leftover) = ask(question, completesPaths: command.asksForPath, typedAhead: typedAhead)
        if let typed, !typed.isEmpty {
            let answer = command.asksForPath ? PathCompletion.expandingTilde(typed) : typed
            switch command {
            case .sendFile: continuation.yield(.sendFile(path: answer))
            case .changeBaudRate: continuation.yield(.changeBaudRate(answer))
            case .runReset: continuation.yield(.runReset(answer))
            case .sendByYModem, .sendByXModem:
                let kind = command.transferProtocol ?? .ymodem
                showTransfer(startsLine: false) { continuation.yield(.sendByProtocol(path: answer, protocol: kind)) }
            default: continuation.yield(.sendHex(answer))
            }
        }
        if mode == .line { editor?.redraw() }
        return leftover
    }

    /// Shows a file transfer that `start` asks the console for, until the console ends
    /// it (``endTransfer()``): its status line redrawn in place, other output held;
    /// Ctrl-C, Escape or the escape key cancel it, as the end of the session does; other
    /// keys are dropped (the transfer owns the line). Ctrl-C is read as a key, as in ``ask(_:completesPaths:typedAhead:)``.
    ///
    /// - Parameter startsLine: whether to leave the line the cursor is on (not right
    ///   after a question, which ended its line).
    private func showTransfer(startsLine: Bool, _ start: () -> Void) {
        shared.withLock { $0.transfer = Transfer() }
        start()
        let signalKeys = readingSignalKeysAsKeys()
        if startsLine && !(isAtLineStart && mode == .raw) { writeAll([0x0D, 0x0A]) }
        defer {
            signalKeys.restore()
            writeAll(Array("\r\u{1b}[K".utf8))
            isAtLineStart = true
            flushOutput(aboveLine: false)
        }
        var shown: String?
        while !isStopping {
            guard let transfer = shared.withLock({ $0.transfer }) else { return }
            if let line = transfer.line, line != shown {
                writeAll(Array(("\r\u{1b}[K" + String(line.prefix(max(1, columns() - 1)))).utf8))
                shown = line
            }
            guard let typed = waitForKeys(.held) else { continue }
            if typed.contains(where: { [0x03, 0x1B, escapeFilter.escape].contains($0) }) { cancelTransfer() }
        }
        cancelTransfer()  // the session is ending (the terminal hung up): so is the transfer
    }

    /// Asks the console's transfer to cancel, once; before the console gave its cancel
    /// (``onTransferCancel(_:)``), when it does.
    private func cancelTransfer() {
        let cancel = shared.withLock { shared -> (@Sendable () -> Void)? in
            guard shared.transfer?.isCancelled == false else { return nil }
            shared.transfer?.isCancelled = true
            return shared.transfer?.cancel
        }
        cancel?()
    }

    /// Reads one answer on its own line: printable text, Backspace; Enter ends it,
    /// Ctrl-C, Ctrl-G or Escape cancel it (`nil`); with `completesPaths`, Tab completes
    /// a path (``PathCompletion``), listing the names when several match. Ctrl-C is
    /// read as a key here in line mode too, where libedit's terminal settings otherwise
    /// make it SIGINT (which ends the session), so it cancels only the question.
    private func ask(_ prompt: String, completesPaths: Bool, typedAhead: [UInt8]) -> (
        answer: String?, leftover: [UInt8]
    ) {
        let signalKeys = readingSignalKeysAsKeys()
        writeAll(Array(((isAtLineStart && mode == .raw ? "" : "\r\n") + prompt).utf8))
        var answer: [UInt8] = []
        var decoder = UTF8Decoder()
        defer {
            signalKeys.restore()
            writeAll([0x0D, 0x0A])
            isAtLineStart = true
            flushOutput(aboveLine: false)
        }
        var bytes = typedAhead
        while !isStopping {
            for (index, byte) in bytes.enumerated() {
                switch byte {
                case 0x0D, 0x0A:
                    return (String(decoding: answer, as: UTF8.self), Array(bytes[(index + 1)...]))
                case 0x03, 0x07, 0x1B:
                    return (nil, Array(bytes[(index + 1)...]))
                case 0x09 where completesPaths:
                    let completion = PathCompletion.complete(String(decoding: answer, as: UTF8.self))
                    answer += Array(completion.added.utf8)
                    if !completion.candidates.isEmpty && completion.added.isEmpty {
                        let list = completion.candidates.joined(separator: "  ")
                        writeAll(Array(("\r\n" + list + "\r\n" + prompt).utf8) + answer)
                    } else {
                        writeAll(completion.added.isEmpty ? [0x07] : Array(completion.added.utf8))
                    }
                case 0x7F, 0x08:
                    guard !answer.isEmpty else { continue }
                    // Drop one character (its UTF-8 continuation bytes too).
                    while let last = answer.popLast(), last & 0xC0 == 0x80 {}
                    writeAll(Array("\u{8} \u{8}".utf8))
                case 0x20...:
                    answer.append(byte)
                    writeAll(decoder.decode([byte]).flatMap { Array(String($0).utf8) })
                default:
                    continue
                }
            }
            guard let typed = waitForKeys(.held) else {
                bytes = []
                continue
            }
            bytes = typed
        }
        return (nil, [])
    }

    /// The input's settings before ``readingSignalKeysAsKeys()``.
    private struct SignalKeys {
        let input: Int32
        /// The settings to put back; `nil` when nothing was changed.
        let saved: termios?

        func restore() {
            guard var settings = saved else { return }
            tcsetattr(input, TCSANOW, &settings)
        }
    }

    /// Turns off ISIG on the input, so Ctrl-C arrives as a key (0x03), not SIGINT, until
    /// the returned value's `restore()`.
    private func readingSignalKeysAsKeys() -> SignalKeys {
        var settings = termios()
        guard tcgetattr(input, &settings) == 0, settings.c_lflag & tcflag_t(ISIG) != 0 else {
            return SignalKeys(input: input, saved: nil)
        }
        let saved = settings
        settings.c_lflag &= ~tcflag_t(ISIG)
        tcsetattr(input, TCSANOW, &settings)
        return SignalKeys(input: input, saved: saved)
    }

    private func runLine() {
        if editor == nil {
            editor = LineEditor(historyPath: historyPath, input: input, output: output) { [unowned self] in
                nextScalar()
            }
        }
        if !isAtLineStart {
            writeAll([0x0D, 0x0A])
            isAtLineStart = true
        }
        guard let editor else {
            write("line editing is not available here; switching to raw mode\n")
            return mode = .raw
        }
        while !isStopping && mode == .line {
            if let line = editor.readLine() {
                continuation.yield(.line(line))
            } else if !isStopping && mode == .line {
                end(hungUp: false)
            }
        }
        // Leave the prompt line: kept with what was typed when the session ends,
        // cleared when switching to raw mode.
        writeAll(Array((isStopping ? "\r\n" : "\r\u{1b}[K").utf8))
        isAtLineStart = true
    }

    /// libedit's source of characters: typed keys, decoded from UTF-8, with the escape
    /// key's commands taken out; shows pending output above the line meanwhile.
    private func nextScalar() -> UnicodeScalar? {
        while true {
            if !pendingScalars.isEmpty { return pendingScalars.removeFirst() }
            if isStopping || mode != .line { return nil }
            if !heldBack.isEmpty {
                let bytes = heldBack
                heldBack = []
                feed(bytes) { keys in pendingScalars += typed.decode(keys) }
                continue
            }
            guard let bytes = waitForKeys(.aboveLine) else { continue }
            feed(bytes) { keys in pendingScalars += typed.decode(keys) }
        }
    }

    /// Where output goes while waiting for keys.
    private enum Placement {
        /// Where the last output ended (raw mode).
        case inline
        /// Above the input line, which is drawn again (line mode).
        case aboveLine
        /// Nowhere yet: kept until the question being answered is done.
        case held
    }

    /// Waits for typed bytes, showing output meanwhile; `nil` after a wake-up or at the
    /// end of input (then the session is ending).
    private func waitForKeys(_ placement: Placement) -> [UInt8]? {
        var entries = [
            pollfd(fd: input, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        let tailDue = placement == .aboveLine ? shared.withLock { $0.tail?.due } : nil
        let timeout = tailDue.map { Int32(max(0, (ContinuousClock.now.duration(to: $0)).milliseconds + 1)) } ?? -1
        let ready = poll(&entries, 2, timeout)
        if ready == 0,
            let tail = shared.withLock({ shared in
                defer { shared.tail = nil }
                if shared.tail?.switchesToRaw == true { shared.mode = .raw }
                return shared.tail
            })
        {
            if tail.switchesToRaw {
                continuation.yield(.promptSeen)  // the line editor ends: the mode is raw
                // What was typed at the line, not sent yet, goes on as keys: the console
                // echoes it after its prompt, as if typed there.
                let typedAhead = (editor?.typedText ?? []) + pendingScalars.flatMap { Array(String($0).utf8) }
                pendingScalars = []
                if !typedAhead.isEmpty { continuation.yield(.keystrokes(typedAhead)) }
            } else {
                write(tail.text + "\n")
                flushOutput(aboveLine: true)
            }
            return nil
        }
        guard ready > 0 else { return nil }
        if entries[1].revents != 0 {
            var sink = [UInt8](repeating: 0, count: 64)
            while sink.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
            if placement != .held { flushOutput(aboveLine: placement == .aboveLine) }
            return nil
        }
        guard entries[0].revents != 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return nil }
        guard count > 0 else {
            end(hungUp: true)
            return nil
        }
        return Array(buffer[..<count])
    }

    private func end(hungUp: Bool) {
        shared.withLock { $0.isStopping = true }
        continuation.yield(.end(hungUp: hungUp))
    }

    /// Writes what other threads handed in; in line mode above the input line, which
    /// is drawn again after it.
    private func flushOutput(aboveLine: Bool) {
        let chunks = shared.withLock { shared in
            defer { shared.output.removeAll(keepingCapacity: true) }
            return shared.output
        }
        guard !chunks.isEmpty else { return }
        if aboveLine, let editor {
            // Clear from the prompt's row (the typed text may wrap) to the end of the
            // screen, write the output there, then draw the prompt and text again.
            let rows = editor.rowsAboveCursor(columns: columns())
            let up = rows > 0 ? "\u{1b}[\(rows)A" : ""
            writeAll(Array("\r\(up)\u{1b}[J".utf8) + Self.crlf(chunks.flatMap(\.bytes)))
            editor.redraw()
            return
        }
        var shown: [UInt8] = []
        for chunk in chunks {
            if chunk.isLines && !isAtLineStart { shown += [0x0D, 0x0A] }
            shown += chunk.isLines ? Self.crlf(chunk.bytes) : chunk.bytes
            isAtLineStart = chunk.bytes.last == 0x0A
        }
        writeAll(shown)
    }

    /// The terminal's width in columns (80 when unknown).
    private func columns() -> Int {
        var size = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// Typed keys as local echo shows them: escaped, Enter as a new line.
    static func echo(of keys: [UInt8]) -> String {
        keys.split(separator: 0x0D, omittingEmptySubsequences: false).map { ByteEscaping.escaped(Array($0)) }
            .joined(separator: "\r\n")
    }

    /// `bytes` with each LF not preceded by CR turned into CR LF.
    private static func crlf(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + bytes.count / 16)
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == 0x0A && previous != 0x0D { result.append(0x0D) }
            result.append(byte)
            previous = byte
        }
        return result
    }

    private func writeAll(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
