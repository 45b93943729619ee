import CLua
import TetherModel
import TetherSerial

extension LuaRun {
    /// `core.lines(dev, text, encoded)` → `true`, or `nil`, a message and whether the
    /// text was refused (``LuaLineControl``).
    func lines(_ lua: LuaState) -> Int32 {
        let index = (lua.integer(at: 1) ?? 1) - 1
        let sequence: LineSequence
        if let text = lua.string(at: 2) {
            do throws(LineSequence.ParseError) { sequence = try LineSequence.parse(text) } catch {
                lua_pushnil(lua.pointer)
                lua.push(error.description)
                lua_pushboolean(lua.pointer, 1)
                return 3
            }
        } else {
            sequence = LineSequence(encoded: lua.string(at: 3) ?? "")
        }
        if let error = mediator.run(sequence, on: index) {
            lua_pushnil(lua.pointer)
            lua.push(error.description)
            return 2
        }
        lua_pushboolean(lua.pointer, 1)
        return 1
    }

    /// `core.baud(dev, rate)` → the settings read back, or `nil` and a message.
    func baud(_ lua: LuaState) -> Int32 {
        let index = (lua.integer(at: 1) ?? 1) - 1
        switch mediator.setBaudRate(lua.integer(at: 2) ?? 0, on: index) {
        case .success(let settings):
            lua.push(settings)
            return 1
        case .failure(let error):
            lua_pushnil(lua.pointer)
            lua.push(error.description)
            return 2
        }
    }
}

extension LineSequence {
    /// The steps the Lua chunk encoded as `dtr,rts,break,hold_ms;…` (each line 1, 0 or
    /// -1 for unchanged), checked there; named by their lines.
    init(encoded: String) {
        let steps = encoded.split(separator: ";").map { part -> LineStep in
            let fields = part.split(separator: ",").map { Int($0) ?? -1 }
            func state(_ index: Int) -> Bool? {
                index < fields.count && fields[index] >= 0 ? fields[index] == 1 : nil
            }
            return LineStep(
                dtr: state(0), rts: state(1), isBreak: state(2), hold: .milliseconds(fields.count > 3 ? fields[3] : 0))
        }
        self.init(name: steps.map(\.description).joined(separator: "; "), steps: steps)
    }
}
