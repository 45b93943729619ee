import Foundation

/// A private tmux server (its own socket) running one command in a pane of a given
/// size, so a test can look at a full-screen program the way a person would:
/// `capture-pane` shows what is on the screen, `send-keys` types.
final class Tmux {
    private let socket = "tether-test-\(UUID().uuidString)"

    /// Starts `command` (a shell command line) in a `columns` × `rows` pane, with
    /// `environment` set. `NO_COLOR` is unset unless given: `swift test` sets it for the
    /// tests, and a person's terminal does not have it.
    init(_ command: String, columns: Int = 100, rows: Int = 30, environment: [String: String] = [:]) throws {
        let exports = environment.map { "export \($0)='\($1)'; " }.joined()
        let result = try tmux([
            "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-e", "TERM=tmux-256color",
            "unset NO_COLOR; \(exports)\(command)",
        ])
        guard result.status == 0 else { throw Failure(message: result.stderr) }
    }

    struct Failure: Error { let message: String }

    /// The screen, one string per row, trailing blanks removed; `escapes` keeps the
    /// escape sequences of colours and attributes.
    func capture(escapes: Bool = false) -> [String] {
        let result = try? tmux(["capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : []))
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

    /// Waits until the screen satisfies `condition` (30 s at most); returns the screen.
    func waitForScreen(timeout: Double = 30, _ condition: ([String]) -> Bool) -> [String]? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let screen = capture()
            if condition(screen) { return screen }
            usleep(100_000)
        }
        return nil
    }

    /// Types `keys` (tmux key names, e.g. `C-c`).
    func send(_ keys: String...) { _ = try? tmux(["send-keys", "-t", "0"] + keys) }

    /// Resizes the pane's window.
    func resize(columns: Int, rows: Int) {
        _ = try? tmux(["resize-window", "-t", "0", "-x", "\(columns)", "-y", "\(rows)"])
    }

    private func tmux(_ arguments: [String]) throws -> Subprocess.Result {
        try Subprocess.run(path: "/usr/bin/tmux", ["-L", socket, "-f", "/dev/null"] + arguments, timeout: 30)
    }

    deinit { _ = try? tmux(["kill-server"]) }
}
