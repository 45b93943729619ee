import TetherLibC
import TetherPresenter

/// A script checked and ready to run: parsed (query file) or compiled once
/// (Lua), its device names matched against the run's devices. Preparing opens no
/// port and sends nothing, so it is also `tether run --dry-run`.
public struct PreparedScript: Sendable {
    enum Body: Sendable {
        case queries(QueryFile)
        case lua
    }

    /// The script.
    public let script: Script
    let body: Body

    /// Checks `script` for a run over devices named `deviceNames` (`nil`: the
    /// unnamed device).
    ///
    /// A query file runs on the first device. A Lua script must name only devices
    /// of the run (`devices.NAME`), checked by reading its text (see
    /// `LuaSyntax/deviceReferences(in:)`); Lua also raises at the access itself.
    ///
    /// - Throws: ``ScriptError`` with `file:line` for a query file line that does not
    ///   parse, a Lua syntax error, or an unknown device name.
    public init(_ script: Script, deviceNames: [String?]) throws(ScriptError) {
        self.script = script
        switch script.language {
        case .queries:
            body = .queries(try QueryFile(parsing: script.text, name: script.name))
        case .lua:
            try LuaSyntax.check(script)
            let known = Set(deviceNames.compactMap { $0 })
            for reference in LuaSyntax.deviceReferences(in: script) where !known.contains(reference.name) {
                let list = known.isEmpty ? "no named devices" : known.sorted().joined(separator: ", ")
                throw ScriptError(
                    at: reference.location,
                    "unknown device \(Quoted(reference.name)) (this run has: \(list); name one with --port \(reference.name)=PATH)"
                )
            }
            body = .lua
        }
    }

    /// How many commands a query file holds (its wait lines included); `nil` for Lua.
    public var stepCount: Int? {
        if case .queries(let file) = body { return file.steps.count }
        return nil
    }
}
