import Foundation

/// A real terminal for end-to-end tests: a private tmux server (its own socket, so
/// tests never touch the user's tmux) with one pane of a given size running a shell
/// command. Keys go in with `send-keys`; the screen comes out of `capture-pane`, the
/// way a person would see it.
final class Tmux {
    private let socket = "tether-test-\(UUID().uuidString)"

    /// Starts `command` (a shell command line, run by tmux's default shell) in a `columns` × `rows`
    /// pane with `TERM=tmux-256color` and `environment` set. `NO_COLOR` is unset unless
    /// given: `swift test` sets it for the tests, and a person's terminal does not have it.
    init(_ command: String, columns: Int = 100, rows: Int = 30, environment: [String: String] = [:]) throws {
        let exports = environment.map { "export \($0.key)=\(Self.quoted($0.value)); " }.joined()
        let result = try tmux([
            "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-e", "TERM=tmux-256color",
            "unset NO_COLOR; \(exports)\(command)",
        ])
        guard result.status == 0 else { throw Failure(message: result.stderr) }
    }

    struct Failure: Error { let message: String }

    /// The screen, one string per row, trailing blanks removed: with `history`, that
    /// many lines scrolled off above it first; with `escapes`, the escape sequences of
    /// colours and attributes.
    func capture(escapes: Bool = false, history: Int = 0) -> [String] {
        let result = try? tmux(
            ["capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : []) + (history > 0 ? ["-S", "-\(history)"] : []))
        var text = result?.stdout ?? ""
        if text.hasSuffix("\n") { text.removeLast() }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// Whether the pane shows the alternate screen (a full-screen program's) and whether
    /// its cursor is visible, as tmux tracks them.
    var modes: (alternateScreen: Bool, cursorVisible: Bool) {
        let result = try? tmux(["display-message", "-p", "-t", "0", "#{alternate_on} #{cursor_flag}"])
        let flags = (result?.stdout ?? "").split(separator: " ").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return (flags.first == "1", flags.last == "1")
    }

    /// The values of tmux's pane formats `names` (`alternate_on`, `mouse_any_flag`,
    /// `scroll_region_upper`…: the terminal's modes as tmux tracks them), by name.
    func formats(_ names: [String]) -> [String: String] {
        let result = try? tmux(["display-message", "-p", "-t", "0", names.map { "#{\($0)}" }.joined(separator: " ")])
        let values = (result?.stdout ?? "").trimmingCharacters(in: .whitespacesAndNewlines).split(
            separator: " ", omittingEmptySubsequences: false)
        return Dictionary(uniqueKeysWithValues: zip(names, values.map(String.init)))
    }

    /// The pid of the pane's shell.
    var shellPID: Int32? {
        let result = try? tmux(["list-panes", "-F", "#{pane_pid}"])
        return (result?.stdout.split(separator: "\n").first).flatMap { Int32($0) }
    }

    /// Waits until the screen satisfies `condition` (30 s at most); returns the screen.
    func waitForScreen(timeout: Double = 30, _ condition: ([String]) -> Bool) -> [String]? {
        var screen: [String] = []
        let found = waitUntil(timeout: timeout) {
            screen = capture()
            return condition(screen)
        }
        return found ? screen : nil
    }

    /// Types `keys` (tmux key names: `Enter`, `C-c`, `Up`, `BSpace`…).
    func send(_ keys: String...) { _ = try? tmux(["send-keys", "-t", "0"] + keys) }

    /// Types `text` literally (`--`: text starting with `-` is not an option of tmux's).
    func type(_ text: String) { _ = try? tmux(["send-keys", "-t", "0", "-l", "--", text]) }

    /// Pastes the text in `file` as a terminal paste (one write of all of it).
    func paste(contentsOf file: String) throws {
        _ = try tmux(["load-buffer", file])
        _ = try tmux(["paste-buffer", "-t", "0"])
    }

    /// Resizes the pane's window.
    func resize(columns: Int, rows: Int) {
        _ = try? tmux(["resize-window", "-t", "0", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// `word` in single quotes for `/bin/sh`.
    static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private func tmux(_ arguments: [String]) throws -> Subprocess.Result {
        try Subprocess.run(
            path: "/usr/bin/env", ["-u", "TMUX", "tmux", "-L", socket, "-f", "/dev/null"] + arguments, timeout: 30)
    }

    deinit { _ = try? tmux(["kill-server"]) }
}
