import Foundation
import Glibc

/// `tether connect` (or another product of this package) in a ``Tmux`` terminal of
/// 120×40, run as `stty -g > before; COMMAND; echo EXIT=$?; stty -g > after`, so a test
/// can compare the terminal settings before and after tether.
final class TmuxTerminal {
    let folder: TemporaryFolder
    private let tmux: Tmux

    /// Starts `arguments` (the first one a product of this package, e.g. `tether`) with
    /// `environment` set in its shell, in `directory` (`nil`: the tests' own).
    init(_ arguments: [String], environment: [String: String] = [:], directory: String? = nil) throws {
        folder = try TemporaryFolder()
        let words = [Subprocess.productsDirectory.appendingPathComponent(arguments[0]).path] + arguments.dropFirst()
        let before = Tmux.quoted(folder.path("before"))
        let after = Tmux.quoted(folder.path("after"))
        tmux = try Tmux(
            (directory.map { "cd \(Tmux.quoted($0)) && " } ?? "")
                + "stty -g > \(before); \(words.map(Tmux.quoted).joined(separator: " ")); echo EXIT=$?; stty -g > \(after); "
                + "exec sleep 600", columns: 120, rows: 40, environment: environment)
    }

    /// Sends tmux key names (`Enter`, `C-c`, `Up`, `BSpace`…).
    func press(_ keys: String...) {
        for key in keys { tmux.send(key) }
    }

    /// Types `text` literally.
    func type(_ text: String) { tmux.type(text) }

    /// Pastes `text` as a terminal paste (one write of all of it).
    func paste(_ text: String) throws {
        let file = folder.path("paste")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        try tmux.paste(contentsOf: file)
    }

    /// The screen's text and 200 lines above it, one line per row.
    var screen: String {
        tmux.capture(history: 200).joined(separator: "\n")
    }

    /// The screen with the escape sequences of its colours and attributes.
    var screenWithAttributes: String {
        tmux.capture(escapes: true).joined(separator: "\n")
    }

    /// The terminal's modes as tmux tracks them (``Tmux/formats(_:)``).
    func formats(_ names: [String]) -> [String: String] { tmux.formats(names) }

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
        guard let shell = tmux.shellPID else { return nil }
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
}

/// The bytes a simulated device received, read from its transcript (`<` lines).
enum TranscriptBytes {
    /// What the simulator received, by its `--log` at `path`.
    static func received(in path: String) -> [UInt8] { bytes(in: path, direction: "<") }

    /// What the simulator sent, by its `--log` at `path`.
    static func sent(in path: String) -> [UInt8] { bytes(in: path, direction: ">") }

    private static func bytes(in path: String, direction: Substring) -> [UInt8] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var bytes: [UInt8] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, fields[1] == direction else { continue }
            let hex = fields[2].components(separatedBy: "  ")[0]
            bytes += hex.split(separator: " ").compactMap { UInt8($0, radix: 16) }
        }
        return bytes
    }
}
