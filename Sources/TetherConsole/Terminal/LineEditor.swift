import CEditLine
import Glibc
import TetherLibC

/// Line editing and history for `connect`'s line mode, through libedit (Debian's
/// `libedit-dev`, editline(3)): emacs keys, Left/Right, Backspace, Up/Down through the
/// history, Ctrl-R search.
///
/// libedit does not read the terminal itself: every character comes from `read`, so
/// the caller can wait on the keyboard and other work at once (device output shown
/// above the line, see ``redraw()``). Not thread-safe: one thread uses an editor.
public final class LineEditor {
    /// Gives the next character typed, or `nil` to end ``readLine()`` (no line).
    public typealias Reader = () -> UnicodeScalar?

    private let editLine: OpaquePointer
    /// The streams libedit was given (over duplicates of the descriptors), closed with it.
    private let files: (input: UnsafeMutablePointer<FILE>, output: UnsafeMutablePointer<FILE>)
    private let history: OpaquePointer
    private let historyPath: String?
    private let read: Reader

    /// Sets up libedit on a terminal: standard input and output, or the descriptors
    /// given. Without a terminal there, libedit reads lines with no editing.
    ///
    /// - Parameters:
    ///   - historyPath: the history file, loaded now and saved after each line; `nil`
    ///     keeps no history across sessions.
    ///   - input: the descriptor whose terminal settings libedit sets while it reads.
    ///   - output: the descriptor the prompt and the line are drawn on.
    ///   - read: gives each typed character (blocks).
    public init?(
        historyPath: String?, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO,
        read: @escaping Reader
    ) {
        Self.useUTF8Characters()
        guard let inputFile = fdopen(dup(input), "r") else { return nil }
        guard let outputFile = fdopen(dup(output), "w") else {
            fclose(inputFile)
            return nil
        }
        guard let editLine = tether_el_init_files("tether", inputFile, outputFile), let history = history_init()
        else {
            fclose(inputFile)
            fclose(outputFile)
            return nil
        }
        files = (inputFile, outputFile)
        self.editLine = editLine
        self.history = history
        self.historyPath = historyPath
        self.read = read
        tether_history_setsize(history, 1000)
        tether_history_setunique(history)
        if let historyPath { tether_history_load(history, historyPath) }
        tether_el_set_emacs(editLine)
        tether_el_bind_history_search(editLine)
        tether_el_set_history(editLine, history)
        tether_el_set_prompt(editLine)
        tether_el_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
        tether_el_set_getc(editLine) { editLine, character in
            guard let data = tether_el_get_clientdata(editLine) else { return -1 }
            let editor = Unmanaged<LineEditor>.fromOpaque(data).takeUnretainedValue()
            guard let scalar = editor.read() else { return 0 }
            character?.pointee = wchar_t(bitPattern: scalar.value)
            return 1
        }
    }

    deinit {
        el_end(editLine)
        history_end(history)
        fclose(files.input)
        fclose(files.output)
    }

    /// Reads one line, with editing; `nil` at the end of input (Ctrl-D on an empty
    /// line, or the reader returned `nil`).
    ///
    /// - Returns: the line without its line end; a non-empty one is added to the history.
    public func readLine() -> String? {
        var count: Int32 = 0
        guard let raw = el_gets(editLine, &count), count > 0 else { return nil }
        var line = String(cString: raw)
        if line.hasSuffix("\n") {
            line.removeLast()
        } else {
            return nil  // ended by the reader in the middle of the line
        }
        if !line.isEmpty {
            tether_history_enter(history, line)
            if let historyPath { tether_history_save(history, historyPath) }
        }
        return line
    }

    /// The bytes of the line being typed, not yet sent (UTF-8). Call only from within
    /// the reader.
    var typedText: [UInt8] {
        guard let info = el_line(editLine) else { return [] }
        return Array(
            UnsafeBufferPointer(
                start: UnsafeRawPointer(info.pointee.buffer).assumingMemoryBound(to: UInt8.self),
                count: info.pointee.lastchar - info.pointee.buffer))
    }

    /// How many terminal rows above the cursor the prompt starts, for a terminal
    /// `columns` wide: the text being typed may wrap.
    func rowsAboveCursor(columns: Int) -> Int {
        guard columns > 0, let info = el_line(editLine) else { return 0 }
        let before = UnsafeBufferPointer(
            start: UnsafeRawPointer(info.pointee.buffer).assumingMemoryBound(to: UInt8.self),
            count: info.pointee.cursor - info.pointee.buffer)
        let characters = String(decoding: before, as: UTF8.self).count
        return (Self.promptWidth + characters) / columns
    }

    /// The width of the prompt `> ` (`tether_prompt`).
    private static let promptWidth = 2

    /// Draws the prompt and the text being typed again, on the cursor's line (after
    /// output was written above it). Call only from within the reader.
    func redraw() {
        el_resize(editLine)  // the window may have changed size since the last line
        tether_el_refresh(editLine)
    }

    /// libedit converts characters with the C library's multibyte functions, which a
    /// Swift program leaves in the "C" locale (ASCII only): take the user's locale for
    /// characters, or C.UTF-8 when that is not UTF-8 — commands are sent as UTF-8.
    private static func useUTF8Characters() {
        setlocale(LC_CTYPE, "")
        if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
    }

    /// The history file: `$XDG_STATE_HOME/tether/history`, or
    /// `~/.local/state/tether/history` (XDG Base Directory specification); the folder
    /// is created. `nil` when there is no home folder.
    public static func historyPath(environment: [String: String] = Environment.variables) -> String? {
        let state: String
        if let configured = environment["XDG_STATE_HOME"], configured.hasPrefix("/") {
            state = configured
        } else if let home = environment["HOME"], !home.isEmpty {
            state = home + "/.local/state"
        } else {
            return nil
        }
        let folder = state + "/tether"
        FileSystem.createDirectories(atPath: folder)
        return folder + "/history"
    }
}
