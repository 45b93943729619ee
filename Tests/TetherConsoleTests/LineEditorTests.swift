import Foundation
import Testing

@testable import TetherConsole

/// Line mode's editor on a pty: emacs keys, the history within a session and across
/// sessions.
@Suite struct LineEditorTests {
    /// Keys typed, one character at a time as libedit asks; then the end of input.
    final class Keys {
        private var scalars: [UnicodeScalar]

        init(_ text: String) { scalars = Array(text.unicodeScalars) }

        func next() -> UnicodeScalar? { scalars.isEmpty ? nil : scalars.removeFirst() }
    }

    static func editor(_ keys: Keys, on pty: TestTerminal, history: String) throws -> LineEditor {
        try #require(LineEditor(historyPath: history, input: pty.terminal, output: pty.terminal) { keys.next() })
    }

    @Test func linesAreEditedAndRecalled() throws {
        let pty = try TestTerminal(raw: false)
        let folder = try TemporaryFolder()
        // SETX, Ctrl-B Ctrl-B (left), Backspace (drops E), E, Ctrl-E (end), Backspace
        // (drops X), P?; an empty line; Ctrl-P (the previous line) again.
        let keys = Keys("RATE 0\rSETX\u{2}\u{2}\u{7f}E\u{5}\u{7f}P?\r\r\u{10}\r")
        let editor = try Self.editor(keys, on: pty, history: folder.path("history"))
        #expect(editor.readLine() == "RATE 0")
        #expect(editor.readLine() == "SETP?")
        #expect(editor.readLine() == "")
        #expect(editor.readLine() == "SETP?")
        #expect(editor.readLine() == nil)
    }

    /// The history file keeps each line once in a row, no empty line, and the next
    /// session walks it back from the latest.
    @Test func theHistoryIsKeptForTheNextSession() throws {
        let pty = try TestTerminal(raw: false)
        let folder = try TemporaryFolder()
        let path = folder.path("history")
        let first = try Self.editor(Keys("RATE 0\rSETP?\r\rSETP?\r"), on: pty, history: path)
        while first.readLine() != nil {}
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.components(separatedBy: "SETP?").count == 2, "\(saved)")
        let second = try Self.editor(Keys("\u{10}\r\u{10}\u{10}\r"), on: pty, history: path)
        #expect(second.readLine() == "SETP?")
        #expect(second.readLine() == "RATE 0")
    }

    @Test func aLineCutShortByTheEndOfInputIsNoLine() throws {
        let pty = try TestTerminal(raw: false)
        let folder = try TemporaryFolder()
        let editor = try Self.editor(Keys("RAT"), on: pty, history: folder.path("history"))
        #expect(editor.readLine() == nil)
        #expect(!FileManager.default.fileExists(atPath: folder.path("history")))
    }

    /// `$XDG_STATE_HOME/tether/history` when that is absolute, else under
    /// `~/.local/state` (XDG Base Directory specification); the folder is made.
    @Test func theHistoryFileFollowsXDG() throws {
        let folder = try TemporaryFolder()
        let state = folder.path("state")
        let home = folder.path("home")
        #expect(
            LineEditor.historyPath(environment: ["XDG_STATE_HOME": state, "HOME": home])
                == state + "/tether/history")
        #expect(
            LineEditor.historyPath(environment: ["XDG_STATE_HOME": "relative", "HOME": home])
                == home + "/.local/state/tether/history")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: state + "/tether", isDirectory: &isFolder) && isFolder.boolValue)
        #expect(LineEditor.historyPath(environment: ["HOME": ""]) == nil)
    }
}
