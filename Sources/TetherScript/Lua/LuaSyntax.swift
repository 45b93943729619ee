import CLua
import TetherPresenter

/// Checks a Lua script before a run, without running it: its syntax (Lua's own
/// parser, in a throw-away state) and the device names it refers to.
enum LuaSyntax {
    /// Compiles `script` in a fresh state.
    ///
    /// - Throws: ``ScriptError`` with Lua's message and its `file:line`.
    static func check(_ script: Script) throws(ScriptError) {
        guard let pointer = luaL_newstate() else { throw ScriptError(at: nil, "cannot create a Lua state") }
        defer { lua_close(pointer) }
        guard let message = LuaState(pointer: pointer).load(script.text, chunkName: "@" + script.name) else { return }
        let problem = LuaRun.problem(message, script: script)
        guard let location = problem.location else { throw ScriptError(at: nil, problem.message) }
        let prefix = "\(location):"
        let text = String(problem.message.dropFirst(prefix.count).drop { $0 == " " })
        throw ScriptError(at: location, text)
    }

    /// The device names `script` refers to as `devices.NAME` or `devices["NAME"]`
    /// (or `'NAME'`), with their lines, in order; text after `--` on a line is
    /// skipped as a comment.
    static func deviceReferences(in script: Script) -> [(name: String, location: SourceLocation)] {
        let pattern = try! Regex(#"\bdevices\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*["']([^"']*)["']\s*\])"#)
        var references: [(String, SourceLocation)] = []
        let lines = script.text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, line) in lines.enumerated() {
            let code = line.firstRange(of: "--").map { line[..<$0.lowerBound] } ?? line
            for match in code.matches(of: pattern) {
                guard let name = (match.output[1].substring ?? match.output[2].substring) else { continue }
                references.append((String(name), SourceLocation(file: script.name, line: index + 1)))
            }
        }
        return references
    }
}
