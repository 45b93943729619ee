import CLua
import TetherModel
import TetherPresenter
import TetherTransfer

/// Runs a Lua script on the script thread: one Lua state, created, used and closed
/// on that one thread (Lua is not thread-safe), with the ``LuaPrelude`` API over the
/// run's ``RunMediator``.
///
/// The primitives of `core` are C functions whose first upvalue is this object as a
/// light userdata; the object outlives the state, which ``run()`` closes.
///
/// The state's memory is bounded: an allocator refuses to hold more than
/// `memoryLimit` bytes, Lua raises "not enough memory", and the run fails with a script
/// error naming the line that asked for more.
final class LuaRun {
    private let script: Script
    let mediator: RunMediator
    /// The default reply and wait timeout, in ms; 0 for none.
    private let defaultTimeout: Int
    private let sourceLines: [Substring]
    /// The most the Lua state may hold, in bytes.
    private let memoryLimit: Int

    init(script: Script, mediator: RunMediator, defaultTimeout: Duration?, memoryLimit: Int) {
        self.script = script
        self.mediator = mediator
        self.memoryLimit = memoryLimit
        self.defaultTimeout = defaultTimeout.map { Int($0.milliseconds) } ?? 0
        sourceLines = script.text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    }

    /// Runs the script to its end, a script error, or the loss of a device it used.
    func run() -> ScriptOutcome {
        let budget = UnsafeMutablePointer<tether_lua_budget>.allocate(capacity: 1)
        defer { budget.deallocate() }
        budget.initialize(to: tether_lua_budget())
        budget.pointee.limit = memoryLimit
        guard let pointer = tether_lua_newstate(budget) else {
            return ScriptOutcome(ending: .failed(ScriptProblem(location: nil, message: "cannot create a Lua state")))
        }
        defer { lua_close(pointer) }
        var outcome = run(pointer)
        if case .failed(let problem) = outcome.ending, budget.pointee.refused != 0,
            problem.message.hasSuffix("not enough memory")
        {
            outcome.ending = .failed(memoryProblem(budget.pointee))
        }
        return outcome
    }

    /// The script error for running out of the memory budget, at the line that asked
    /// for more when it is in the script.
    private func memoryProblem(_ budget: tether_lua_budget) -> ScriptProblem {
        let source = withUnsafeBytes(of: budget.source) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let position = source == Self.shortName(of: script.name) && budget.line > 0 ? ":\(budget.line)" : ""
        let text =
            "\(script.name)\(position): out of memory: the script needs more than its limit of "
            + "\(memoryLimit / 1_048_576) MiB"
        return Self.problem(text, script: script)
    }

    private func run(_ pointer: OpaquePointer) -> ScriptOutcome {
        let lua = LuaState(pointer: pointer)
        luaL_openlibs(pointer)
        if let message = lua.load(LuaPrelude.source, chunkName: LuaPrelude.chunkName) {
            return ScriptOutcome(ending: .failed(ScriptProblem(location: nil, message: message)))
        }
        pushCore(lua)
        lua_createtable(pointer, Int32(mediator.devices.count), 0)
        for (offset, item) in mediator.devices.enumerated() {
            if let name = item.name { lua.push(name) } else { lua_pushboolean(pointer, 0) }
            lua_rawseti(pointer, -2, lua_Integer(offset + 1))
        }
        lua_pushinteger(pointer, lua_Integer(defaultTimeout))
        lua_createtable(pointer, Int32(mediator.devices.count), 0)
        for (offset, item) in mediator.devices.enumerated() {
            lua_pushboolean(pointer, item.reconnects ? 1 : 0)
            lua_rawseti(pointer, -2, lua_Integer(offset + 1))
        }
        guard tether_lua_pcall(pointer, 4, 1, 0) == LUA_OK else {
            return ScriptOutcome(ending: .failed(Self.problem(lua.string(at: -1) ?? "prelude failed", script: script)))
        }
        if let message = lua.load(script.text, chunkName: "@" + script.name) {
            return ScriptOutcome(ending: .failed(Self.problem(message, script: script)))
        }
        guard tether_lua_pcall(pointer, 1, 4, 0) == LUA_OK else {
            return ScriptOutcome(ending: .failed(Self.problem(lua.string(at: -1) ?? "error", script: script)))
        }
        var outcome = ScriptOutcome(ending: .completed)
        outcome.unhandledTimeouts = lua.integer(at: -2) ?? 0
        outcome.unhandledErrorReplies = lua.integer(at: -1) ?? 0
        switch lua.string(at: -4) {
        case "lost": outcome.ending = .deviceLost
        case "error": outcome.ending = .failed(Self.problem(lua.string(at: -3) ?? "error", script: script))
        default: break
        }
        return outcome
    }

    /// A Lua error message as a problem, located when it starts with `script:line:`.
    ///
    /// Lua shortens a long script name in its messages (`...` and the name's last
    /// bytes, `luaO_chunkid`); that prefix is put back to the name as given.
    static func problem(_ message: String, script: Script) -> ScriptProblem {
        var message = message
        let short = shortName(of: script.name) + ":"
        if message.hasPrefix(short) { message = script.name + ":" + message.dropFirst(short.count) }
        let prefix = script.name + ":"
        guard message.hasPrefix(prefix) else { return ScriptProblem(location: nil, message: message) }
        let digits = message.dropFirst(prefix.count).prefix { $0.isNumber }
        guard let line = Int(digits) else { return ScriptProblem(location: nil, message: message) }
        return ScriptProblem(location: SourceLocation(file: script.name, line: line), message: message)
    }

    /// The name Lua shows for a chunk named `"@" + name`: the name itself when it
    /// fits in `LUA_IDSIZE`, else `...` and its last bytes (Lua 5.4's `luaO_chunkid`).
    static func shortName(of name: String) -> String {
        let bytes = Array(name.utf8)
        let size = Int(LUA_IDSIZE)
        guard bytes.count + 1 > size else { return name }
        return "..." + String(decoding: bytes.suffix(size - 4), as: UTF8.self)
    }

    // MARK: - core

    private func pushCore(_ lua: LuaState) {
        let functions: [(String, lua_CFunction)] = [
            ("submit", { LuaRun.from($0).submit(LuaState(pointer: $0!)) }),
            ("next", { LuaRun.from($0).next(LuaState(pointer: $0!)) }),
            ("now", { LuaRun.from($0).now(LuaState(pointer: $0!)) }),
            ("report", { LuaRun.from($0).report(LuaState(pointer: $0!)) }),
            ("emit", { LuaRun.from($0).emit(LuaState(pointer: $0!)) }),
            ("consume", { LuaRun.from($0).consume(LuaState(pointer: $0!)) }),
            ("write", { LuaRun.from($0).write(LuaState(pointer: $0!)) }),
            ("read", { LuaRun.from($0).read(LuaState(pointer: $0!)) }),
            ("discard", { LuaRun.from($0).discard(LuaState(pointer: $0!)) }),
            ("transfer", { LuaRun.from($0).transfer(LuaState(pointer: $0!)) }),
            ("lines", { LuaRun.from($0).lines(LuaState(pointer: $0!)) }),
            ("baud", { LuaRun.from($0).baud(LuaState(pointer: $0!)) }),
        ]
        lua_createtable(lua.pointer, 0, Int32(functions.count))
        for (name, function) in functions {
            lua_pushlightuserdata(lua.pointer, Unmanaged.passUnretained(self).toOpaque())
            lua_pushcclosure(lua.pointer, function, 1)
            lua_setfield(lua.pointer, -2, name)
        }
        lua_pushinteger(lua.pointer, lua_Integer(ReceivedBytes.limit))
        lua_setfield(lua.pointer, -2, "read_limit")
        lua.push(LuaLineControl.source)
        lua_setfield(lua.pointer, -2, "line_control")
    }

    private static func from(_ pointer: OpaquePointer?) -> LuaRun {
        Unmanaged<LuaRun>.fromOpaque(lua_touserdata(pointer, tether_lua_upvalueindex(1))!).takeUnretainedValue()
    }

    /// `core.submit(dev, command, timeout_ms)` → id, or `nil` and a message for a
    /// command the command line would refuse too (``CommandText``).
    private func submit(_ lua: LuaState) -> Int32 {
        let index = (lua.integer(at: 1) ?? 1) - 1
        let bytes = lua.bytes(at: 2) ?? []
        let command = String(decoding: bytes, as: UTF8.self)
        if let problem = CommandText.problem(in: command) {
            lua_pushnil(lua.pointer)
            lua.push(CommandText.message(problem, in: command))
            return 2
        }
        let milliseconds = lua.integer(at: 3) ?? 0
        let id = mediator.submit(bytes: bytes, to: index, timeout: milliseconds > 0 ? .milliseconds(milliseconds) : nil)
        lua_pushinteger(lua.pointer, lua_Integer(id.value))
        return 1
    }

    /// `core.next(deadline_ms | nil)` → an event (see ``LuaPrelude``), or nothing.
    private func next(_ lua: LuaState) -> Int32 {
        let deadline = lua.integer(at: 1).map { mediator.startTime + .milliseconds($0) }
        guard let event = mediator.next(until: deadline) else { return 0 }
        let pointer = lua.pointer
        switch event {
        case .line(let index, let line, let kind):
            lua.push("line")
            lua_pushinteger(pointer, lua_Integer(index + 1))
            lua.push(bytes: line.bytes)
            lua.push(kind.rawValue)
            return 4
        case .pendingText(let index, let line, let start):
            lua.push("pending")
            lua_pushinteger(pointer, lua_Integer(index + 1))
            lua.push(bytes: line.bytes)
            lua_pushinteger(pointer, lua_Integer(start))
            return 4
        case .finished(let index, let id, let outcome):
            lua.push("done")
            lua_pushinteger(pointer, lua_Integer(index + 1))
            lua_pushinteger(pointer, lua_Integer(id.value))
            switch outcome {
            case .success(let reply):
                lua.push(reply.isError ? "error_reply" : "reply")
                lua.push(strings: reply.lines.map(\.bytes))
                let text = (reply.lines + [reply.finalResult].compactMap { $0 }).map(\.text).joined(separator: " | ")
                lua.push(optional: reply.isError ? text : nil)
                if let final = reply.finalResult { lua.push(bytes: final.bytes) } else { lua_pushnil(pointer) }
                if let prompt = reply.prompt { lua.push(bytes: prompt.bytes) } else { lua_pushnil(pointer) }
            case .failure(let failure):
                switch failure {
                case .timedOut: lua.push("timeout")
                case .disconnected, .stopped: lua.push("disconnected")
                case .notSent, .notAllSent, .cancelled: lua.push("not_sent")
                }
                lua_pushnil(pointer)
                lua.push(failure.description)
                lua_pushnil(pointer)
                lua_pushnil(pointer)
            }
            return 8
        case .written(let index, let id):
            lua.push("written")
            lua_pushinteger(pointer, lua_Integer(index + 1))
            lua_pushinteger(pointer, lua_Integer(id.value))
            return 3
        case .bytesArrived(let index):
            lua.push("bytes")
            lua_pushinteger(pointer, lua_Integer(index + 1))
            return 2
        case .lineEvent(let index, let condition):
            lua.push("line_event")
            lua_pushinteger(pointer, lua_Integer(index + 1))
            lua.push(condition.kind.rawValue)
            if let byte = condition.byte { lua_pushinteger(pointer, lua_Integer(byte)) } else { lua_pushnil(pointer) }
            lua.push(LineCondition.inputs.filter(condition.asserted.contains).map(\.rawValue).joined(separator: " "))
            lua.push(condition.changed.map(\.rawValue).joined(separator: " "))
            return 6
        case .ended(let index, let reason, let isLost):
            lua.push("ended")
            lua_pushinteger(pointer, lua_Integer(index + 1))
            lua.push(reason)
            lua_pushboolean(pointer, isLost ? 1 : 0)
            return 4
        }
    }

    /// `core.consume(dev, start, count)` → whether the device still had that pending
    /// text and consumed its first `count` bytes (``RunMediator/consumePendingText(of:start:count:)``).
    private func consume(_ lua: LuaState) -> Int32 {
        let index = (lua.integer(at: 1) ?? 1) - 1
        let consumed =
            mediator.devices.indices.contains(index)
            && mediator.consumePendingText(of: index, start: lua.integer(at: 2) ?? -1, count: lua.integer(at: 3) ?? 0)
        lua_pushboolean(lua.pointer, consumed ? 1 : 0)
        return 1
    }

    /// `core.write(dev, bytes, immediately)` → the queued write's id, or `true` for an
    /// immediate one (``RunMediator/write(_:to:immediately:)``).
    private func write(_ lua: LuaState) -> Int32 {
        let index = (lua.integer(at: 1) ?? 1) - 1
        let bytes = lua.bytes(at: 2) ?? []
        if let id = mediator.write(bytes, to: index, immediately: lua_toboolean(lua.pointer, 3) != 0) {
            lua_pushinteger(lua.pointer, lua_Integer(id.value))
        } else {
            lua_pushboolean(lua.pointer, 1)
        }
        return 1
    }

    /// `core.read(dev, n, accepts_fewer)` → a string of `n` received bytes (or, with
    /// `accepts_fewer`, of the 1 to n-1 waiting), or nil
    /// (``RunMediator/read(from:count:acceptsFewer:)``).
    private func read(_ lua: LuaState) -> Int32 {
        let index = (lua.integer(at: 1) ?? 1) - 1
        let count = lua.integer(at: 2) ?? 1
        if let bytes = mediator.read(from: index, count: count, acceptsFewer: lua_toboolean(lua.pointer, 3) != 0) {
            lua.push(bytes: bytes)
        } else {
            lua_pushnil(lua.pointer)
        }
        return 1
    }

    /// `core.discard(dev)` → how many received bytes not yet read were dropped
    /// (``RunMediator/discardInput(of:)``).
    private func discard(_ lua: LuaState) -> Int32 {
        let index = (lua.integer(at: 1) ?? 1) - 1
        lua_pushinteger(lua.pointer, lua_Integer(mediator.discardInput(of: index)))
        return 1
    }

    /// `core.transfer(dev, direction, path, protocol, command, start_timeout_s, overwrite)`
    /// → for `"send"`, `true`; for `"receive"`, a list of the paths written; or `nil`
    /// and a message (a file that cannot be read or written, a failed transfer). The
    /// prelude has checked the arguments; `command`, when a string, is typed first with
    /// the dialect's terminator (``CommandedTransfer``).
    private func transfer(_ lua: LuaState) -> Int32 {
        let index = (lua.integer(at: 1) ?? 1) - 1
        let isSend = lua.string(at: 2) == "send"
        let path = lua.string(at: 3) ?? ""
        let kind = TransferProtocol(rawValue: lua.string(at: 4) ?? "") ?? .ymodem
        let command = lua.bytes(at: 5).map { mediator.devices[index].device.dialect.encode($0) }
        let limits = TransferLimits(startTimeout: .seconds(lua.integer(at: 6) ?? 60))
        let overwrites = lua_toboolean(lua.pointer, 7) != 0
        func failed(_ message: String) -> Int32 {
            lua_pushnil(lua.pointer)
            lua.push(message)
            return 2
        }
        func run(_ machine: some TransferMachine) -> (TransferOutcome, received: [TransferFile]) {
            guard let command else { return mediator.transfer(machine, on: index) }
            return mediator.transfer(CommandedTransfer(command: command, then: machine), on: index)
        }
        if isSend {
            let file: TransferFile
            do throws(LocalFile.Failure) { file = try LocalFile.read(path) } catch { return failed(error.description) }
            let (outcome, _) = run(TransferSender(kind, files: [file], limits: limits))
            if case .failed(let failure) = outcome { return failed("transfer failed: \(failure)") }
            lua_pushboolean(lua.pointer, 1)
            return 1
        }
        do throws(LocalFile.Failure) {
            try LocalFile.checkWritable(folder: LocalFile.folder(receiving: kind, at: path))
        } catch {
            return failed(error.description)
        }
        let (outcome, received) = run(TransferReceiver(kind, limits: limits))
        var written: [String] = []
        for file in received {
            do throws(LocalFile.Failure) {
                written.append(try LocalFile.write(file, receivedBy: kind, at: path, overwrites: overwrites))
            } catch {
                return failed(error.description)
            }
        }
        if case .failed(let failure) = outcome { return failed("transfer failed: \(failure)") }
        lua.push(strings: written.map { Array($0.utf8) })
        return 1
    }

    /// `core.now()` → ms since the run started.
    private func now(_ lua: LuaState) -> Int32 {
        lua_pushinteger(lua.pointer, lua_Integer((ContinuousClock.now - mediator.startTime).milliseconds))
        return 1
    }

    /// `core.report(status, description, file, line, dev, actual, detail, expected)`.
    private func report(_ lua: LuaState) -> Int32 {
        let isDeviceLost = lua.string(at: 1) == "lost"
        let status = lua.string(at: 1).flatMap(CheckResult.Status.init(rawValue:)) ?? .failed
        let location = location(file: lua.string(at: 3), line: lua.integer(at: 4))
        let description = lua.string(at: 2) ?? sourceText(at: location) ?? "check"
        let device = lua.integer(at: 5).flatMap { mediator.devices.indices.contains($0 - 1) ? $0 - 1 : nil }
        let result = CheckResult(
            status: status, location: location, description: description,
            device: device.flatMap { mediator.devices[$0].name }, actual: lua.strings(at: 6),
            detail: lua.string(at: 7), expected: lua.string(at: 8), isDeviceLost: isDeviceLost)
        mediator.report(.checked(result))
        return 0
    }

    /// `core.emit(table, file, line)` → nothing, or why the table has no JSON value
    /// (``LuaState/JSONConversionError``), for the prelude to raise at the call.
    private func emit(_ lua: LuaState) -> Int32 {
        do {
            let value = try lua.jsonValue(at: 1)
            mediator.report(.emitted(value, location: location(file: lua.string(at: 2), line: lua.integer(at: 3))))
            return 0
        } catch {
            lua.push(error.description)
            return 1
        }
    }

    private func location(file: String?, line: Int?) -> SourceLocation {
        SourceLocation(file: file ?? script.name, line: line)
    }

    /// The trimmed source line `location` points at, when it is in this script.
    private func sourceText(at location: SourceLocation) -> String? {
        guard location.file == script.name, let line = location.line, sourceLines.indices.contains(line - 1) else {
            return nil
        }
        let text = sourceLines[line - 1].trimmingWhitespace()
        return text.isEmpty ? nil : text
    }
}
