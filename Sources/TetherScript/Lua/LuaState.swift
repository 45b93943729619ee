import CLua
import TetherPresenter

/// Typed access to a `lua_State` stack for tether's bindings. None of these calls
/// raise a Lua error (no `longjmp` through Swift), apart from running out of memory.
struct LuaState {
    /// The state (`lua_State *`).
    let pointer: OpaquePointer

    /// Loads `text` as a chunk named `chunkName` (`@file` for files, `=name` for
    /// others) and pushes it as a function.
    ///
    /// - Returns: `nil`, or Lua's message (`file:line: …`) for a syntax error; the
    ///   message is popped.
    func load(_ text: String, chunkName: String) -> String? {
        let bytes = Array(text.utf8)
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                tether_luaL_loadbuffer(pointer, $0.baseAddress, $0.count, chunkName)
            }
        }
        guard status != LUA_OK else { return nil }
        defer { tether_lua_pop(pointer, 1) }
        return string(at: -1) ?? "cannot load \(chunkName)"
    }

    /// The string at `index` (exact bytes decoded as UTF-8), or `nil` when the value
    /// there is not a string. Numbers are not converted.
    func string(at index: Int32) -> String? {
        bytes(at: index).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of the string at `index`, exactly (a Lua string may hold any byte:
    /// `"\xff"`), or `nil` when it is not a string.
    func bytes(at index: Int32) -> [UInt8]? {
        guard lua_type(pointer, index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let characters = lua_tolstring(pointer, index, &length) else { return nil }
        return Array(UnsafeRawBufferPointer(start: characters, count: length))
    }

    /// The integer at `index` when it is a number with an integral value.
    func integer(at index: Int32) -> Int? {
        var isNumber: Int32 = 0
        let value = lua_tointegerx(pointer, index, &isNumber)
        return isNumber != 0 ? Int(value) : nil
    }

    /// Pushes `bytes` as a Lua string (Lua strings hold any bytes).
    func push(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(pointer, $0.baseAddress, $0.count) }
        }
    }

    /// Pushes `text` as a Lua string.
    func push(_ text: String) { push(bytes: Array(text.utf8)) }

    /// Pushes `text`, or nil.
    func push(optional text: String?) {
        if let text { push(text) } else { lua_pushnil(pointer) }
    }

    /// Pushes an array of strings as a sequence.
    func push(strings: [[UInt8]]) {
        lua_createtable(pointer, Int32(strings.count), 1)
        for (offset, bytes) in strings.enumerated() {
            push(bytes: bytes)
            lua_rawseti(pointer, -2, lua_Integer(offset + 1))
        }
    }

    /// The strings of the sequence at `index` (non-strings skipped), or `nil` when the
    /// value there is not a table.
    func strings(at index: Int32) -> [String]? {
        guard lua_type(pointer, index) == LUA_TTABLE else { return nil }
        let table = lua_absindex(pointer, index)
        var result: [String] = []
        var position: lua_Integer = 1
        while lua_rawgeti(pointer, table, position) == LUA_TSTRING {
            result.append(string(at: -1)!)
            tether_lua_pop(pointer, 1)
            position += 1
        }
        tether_lua_pop(pointer, 1)
        return result
    }

    /// The value at `index` as a JSON value: a table whose keys are exactly 1…n is
    /// an array, any other table an object (non-string keys written as text);
    /// functions and other values become their type name. Tables nested deeper than
    /// `depthLimit` become `"…"`.
    func jsonValue(at index: Int32, depthLimit: Int = 16) -> JSONValue {
        switch lua_type(pointer, index) {
        case LUA_TBOOLEAN:
            return .bool(lua_toboolean(pointer, index) != 0)
        case LUA_TNUMBER:
            return lua_isinteger(pointer, index) != 0
                ? .int(Int(tether_lua_tointeger(pointer, index))) : .double(tether_lua_tonumber(pointer, index))
        case LUA_TSTRING:
            return .string(string(at: index)!)
        case LUA_TTABLE:
            guard depthLimit > 0, lua_checkstack(pointer, 3) != 0 else { return .string("…") }
            return table(at: lua_absindex(pointer, index), depthLimit: depthLimit - 1)
        case LUA_TNIL, LUA_TNONE:
            return .null
        default:
            return .string(String(cString: lua_typename(pointer, lua_type(pointer, index))))
        }
    }

    private func table(at table: Int32, depthLimit: Int) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        var items: [Int: JSONValue] = [:]
        lua_pushnil(pointer)
        while lua_next(pointer, table) != 0 {
            let value = jsonValue(at: -1, depthLimit: depthLimit)
            if let position = integer(at: -2), lua_isinteger(pointer, -2) != 0 {
                items[position] = value
            } else if let name = string(at: -2) {
                fields[name] = value
            } else {
                fields[describe(at: -2)] = value
            }
            tether_lua_pop(pointer, 1)
        }
        if fields.isEmpty, !items.isEmpty, items.keys.allSatisfy({ (1...items.count).contains($0) }) {
            return .array((1...items.count).map { items[$0]! })
        }
        for (position, value) in items { fields[String(position)] = value }
        return .object(fields)
    }

    /// A key that is neither an integer nor a string, as text.
    private func describe(at index: Int32) -> String {
        switch lua_type(pointer, index) {
        case LUA_TNUMBER: String(tether_lua_tonumber(pointer, index))
        case LUA_TBOOLEAN: lua_toboolean(pointer, index) != 0 ? "true" : "false"
        default: String(cString: lua_typename(pointer, lua_type(pointer, index)))
        }
    }
}
