import Foundation
import Glibc

/// A real terminal for end-to-end tests of `tether connect`: a private tmux server (its
/// own socket, so tests never touch the user's tmux) with one window running a shell
/// command; keys go in with `send-keys`, the screen comes out of `capture-pane`.
///
/// The command runs as `stty -g > before; COMMAND; echo EXIT=$?; stty -g > after`, so a
/// test can compare the terminal settings before and after tether.
final class TmuxTerminal {
    let folder: TemporaryFolder
    private let socket = "tether-test-\(UUID().uuidString)"

    /// Starts `arguments` (the first one a product of this package, e.g. `tether`) in a
    /// new 120×40 terminal, with `environment` set in its shell.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        folder = try TemporaryFolder()
        var words = [Subprocess.productsDirectory.appendingPathComponent(arguments[0]).path] + arguments.dropFirst()
        words = words.map(Self.quoted)
        let exports = environment.map { "export \($0.key)=\(Self.quoted($0.value)); " }.joined()
        let before = Self.quoted(folder.path("before"))
        let after = Self.quoted(folder.path("after"))
        let script =
            "\(exports)stty -g > \(before); \(words.joined(separator: " ")); echo EXIT=$?; stty -g > \(after); "
            + "exec sleep 600"
        try tmux(["new-session", "-d", "-x", "120", "-y", "40", "/bin/sh", "-c", script])
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    /// Sends tmux key names (`Enter`, `C-c`, `Up`, `BSpace`…).
    func press(_ keys: String...) {
        _ = try? tmux(["send-keys"] + keys)
    }

    /// Types `text` literally.
    func type(_ text: String) {
        _ = try? tmux(["send-keys", "-l", text])
    }

    /// Pastes `text` as a terminal paste (one write of all of it).
    func paste(_ text: String) throws {
        let file = folder.path("paste")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        try tmux(["load-buffer", file])
        try tmux(["paste-buffer"])
    }

    /// The screen's text, one line per row, trailing spaces removed.
    var screen: String {
        (try? tmux(["capture-pane", "-p", "-S", "-200"])) ?? ""
    }

    /// Waits until the screen contains `text` (at most `timeout` seconds).
    @discardableResult
    func waitForScreen(containing text: String, timeout: Double = 30) -> Bool {
        waitForScreen(timeout: timeout) { $0.contains(text) }
    }

    /// Waits until `condition` holds for the screen (at most `timeout` seconds).
    @discardableResult
    func waitForScreen(timeout: Double = 30, _ condition: (String) -> Bool) -> Bool {
        waitUntil(timeout: timeout) { condition(screen) }
    }

    /// The exit status the shell printed after tether ended, once it has.
    func waitForExit(timeout: Double = 30) -> Int? {
        guard waitForScreen(containing: "EXIT=", timeout: timeout) else { return nil }
        _ = waitUntilFileExists(folder.path("after"))
        let line = screen.split(separator: "\n").first { $0.hasPrefix("EXIT=") }
        return line.flatMap { Int($0.dropFirst(5)) }
    }

    /// The pid of the program the shell runs (tether), while it runs.
    var tetherPID: Int32? {
        guard let shell = Int32((try? tmux(["list-panes", "-F", "#{pane_pid}"]))?.split(separator: "\n").first ?? "")
        else { return nil }
        let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return children?.split(separator: " ").first.flatMap { Int32($0) }
    }

    /// Quits with Ctrl-T q: whether tether exited 0 and left the terminal settings as
    /// they were.
    func quitsCleanly() -> Bool {
        press("C-t", "q")
        return waitForExit() == 0 && terminalSettingsUnchanged
    }

    /// Whether `stty -g` after tether equals the value before.
    var terminalSettingsUnchanged: Bool {
        guard waitUntilFileExists(folder.path("after")) else { return false }
        let before = try? String(contentsOfFile: folder.path("before"), encoding: .utf8)
        let after = try? String(contentsOfFile: folder.path("after"), encoding: .utf8)
        return before != nil && before == after
    }

    private func waitUntilFileExists(_ path: String) -> Bool {
        waitUntil(timeout: 10) { (try? String(contentsOfFile: path, encoding: .utf8))?.hasSuffix("\n") == true }
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let result = try Subprocess.run(path: "/usr/bin/env", ["-u", "TMUX", "tmux", "-L", socket] + arguments)
        return result.stdout
    }

    private static func quoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// The bytes a simulated device received, read from its transcript (`<` lines).
enum TranscriptBytes {
    static func received(in path: String) -> [UInt8] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var bytes: [UInt8] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, fields[1] == "<" else { continue }
            let hex = fields[2].components(separatedBy: "  ")[0]
            bytes += hex.split(separator: " ").compactMap { UInt8($0, radix: 16) }
        }
        return bytes
    }
}
