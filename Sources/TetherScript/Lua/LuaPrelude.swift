/// The Lua half of tether's Lua API, run in the script's state before the script.
///
/// It builds `device`, `devices`, `sleep`, `emit` and `check` (docs/SCRIPTING.md) on
/// a few primitives that ``LuaRun`` provides as the table `core`:
/// - `core.submit(dev, command, timeout_ms)` → request id (0 ms: no deadline), or
///   `nil` and a message for a command holding a line break (the command is the
///   string's exact bytes);
/// - `core.next(deadline_ms | nil)` → the next event that arrived by the deadline, or
///   nothing at the deadline (``Inbox/take(until:)``):
///   `"line", dev, text, kind` · `"pending", dev, text, start` (text without a line end
///   yet, whole) · `"done", dev, id, outcome, lines, message, final, prompt` ·
///   `"written", dev, id` · `"bytes", dev` (received bytes wait for `core.read`) ·
///   `"line_event", dev, event, byte, asserted, changed` (the inputs as names joined
///   by spaces) ·
///   `"ended", dev, reason, lost`;
/// - `core.consume(dev, start, count)` → whether the device still had the pending
///   text that starts at `start` and consumed its first `count` bytes;
/// - `core.write(dev, bytes, immediately)` → the queued raw write's id (its
///   `"written"` event follows), or `true` for an immediate write;
/// - `core.read(dev, n, accepts_fewer)` → `n` received bytes not yet read (with
///   `accepts_fewer`, the 1 to n-1 waiting), or nil; `core.discard(dev)` → how many
///   unread bytes were dropped; `core.read_limit`, the most bytes kept unread;
/// - `core.transfer(dev, direction, path, protocol, command, start_timeout_s,
///   overwrite)` → a file transfer that blocks until it ends: `true` (`"send"`) or the
///   list of paths written (`"receive"`), or `nil` and a message;
/// - `core.lines`, `core.baud` and `core.line_control` (the source of
///   ``LuaLineControl``, loaded here): the modem lines, breaks and baud rate;
/// - `core.now()` → ms since the run started;
/// - `core.report(status, description, file, line, dev, actual, detail, expected)` → a `check`
///   record (status `lost`: failed because the device disconnected)
///   record; `core.emit(table, file, line)` → an `emit` record, or a message when the
///   table has no JSON value (it contains itself, or holds too many values).
///
/// It is called with `core`, the devices' names (`false` for the unnamed one), the
/// default timeout in ms and, per device, whether it is reopened after a disconnect
/// (``ScriptDevice/reconnects``): then a query that fails because the device went
/// away returns `nil` and the failure (`disconnected`, `not_sent`) instead of stopping
/// the script.
///
/// Everything a script may get wrong is checked here, in Lua, and raised with
/// `error`: no Lua error is ever raised from Swift (a `longjmp` across Swift frames
/// is undefined). Handlers registered with `on` are called from `pump`, that is only
/// while the script waits in `query`, `expect`, `await` or `sleep`, and at its end.
enum LuaPrelude {
    /// The chunk name, as it appears in messages about the prelude itself.
    static let chunkName = "=tether"

    static let source = #"""
        local core, names, default_timeout, reconnects = ...
        local getinfo = debug.getinfo
        local find, format = string.find, string.format
        local pack, unpack, concat = table.pack, table.unpack, table.concat
        local type, error, tostring, select, pairs, ipairs = type, error, tostring, select, pairs, ipairs
        local setmetatable, getmetatable, rawequal, pcall, xpcall = setmetatable, getmetatable, rawequal, pcall, xpcall
        local math_type, stderr = math.type, io.stderr

        local MAX_BUFFERED = 10000
        local READ_LIMIT = core.read_limit
        local buffers, handlers, line_handlers, ended = {}, {}, {}, {}
        -- Per device, the text after its last line without a line end yet:
        -- { text, start (nil once part of it was consumed in the device), skip (its
        -- bytes an expect consumed here, to drop from the line it begins), taken (the
        -- prompt that ended the latest reply: the device holds it no more) }.
        local pending = {}
        for dev = 1, #names do
          buffers[dev] = { head = 1, tail = 0 }
          handlers[dev] = {}
          line_handlers[dev] = {}
        end
        local queries, results, sends = {}, {}, {}
        -- What the script last received from a device ({ dev, lines }): a failed
        -- check's actual value.
        local latest = nil
        local function received(dev, lines, final)
          local copy = {}
          for i = 1, #lines do copy[i] = lines[i] end
          if final then copy[#copy + 1] = final end
          latest = { dev = dev, lines = copy }
        end
        local unhandled = {}
        local queued = { head = 1, tail = 0 }
        local in_handler = false

        local function label(dev) return names[dev] or "device" end

        -- The file and line of the script code that called the API function that
        -- calls this (levels: 1 here, 2 the API function, 3 its caller). The file is
        -- the name as given (`source`), not Lua's shortened `short_src`.
        local function site()
          local info = getinfo(3, "Sl")
          if info and info.currentline and info.currentline > 0 then
            local file = info.source:sub(1, 1) == "@" and info.source:sub(2) or info.short_src
            return file, info.currentline
          end
        end

        local function fail(file, line, message)
          if file then message = format("%s:%d: %s", file, line, message) end
          error(message, 0)
        end

        local Lost = { __tostring = function(e) return e.message end }
        local function lost(dev, file, line)
          local message = format("device '%s' disconnected (%s)", label(dev), ended[dev] and ended[dev].reason or "gone")
          if file then message = format("%s:%d: %s", file, line, message) end
          error(setmetatable({ message = message }, Lost), 0)
        end

        -- os.exit's error value: the end of the script, not an error.
        local Exit = {}

        -- The message handler of the script and of its handlers: an error raised with a
        -- value that is not a message (error({ code = 5 })) is made one, as the
        -- standalone lua interpreter does ("(error object is a table value)", or its
        -- __tostring), at the place it was raised: the innermost Lua function's file:line.
        local function located(problem)
          local meta = getmetatable(problem)
          if type(problem) == "string" or meta == Exit or meta == Lost then return problem end
          local text = math_type(problem) and tostring(problem) or nil
          if meta and meta.__tostring then
            local converted, shown = pcall(tostring, problem)
            if converted and type(shown) == "string" then text = shown end
          end
          text = text or format("(error object is a %s value)", type(problem))
          for level = 2, math.huge do
            local info = getinfo(level, "Sl")
            if not info then break end
            if info.what ~= "C" and info.currentline > 0 then
              local file = info.source:sub(1, 1) == "@" and info.source:sub(2) or info.short_src
              return format("%s:%d: %s", file, info.currentline, text)
            end
          end
          return text
        end

        -- An error value handed to the script: counted as unhandled until the script
        -- reads one of its fields or converts it to a string.
        local function failure(fields)
          local proxy = {}
          unhandled[proxy] = fields.kind
          return setmetatable(proxy, {
            __index = function(_, key) unhandled[proxy] = nil; return fields[key] end,
            __tostring = function() unhandled[proxy] = nil; return fields.message end,
            __name = "tether.error",
          })
        end

        local function checked_timeout(value, what, file, line)
          if value == nil then return default_timeout end
          if math_type(value) == nil or value < 0 then
            fail(file, line, what .. ": timeout must be a number of milliseconds, 0 or more")
          end
          return value // 1
        end

        local function checked_pattern(pattern, what, file, line)
          if type(pattern) ~= "string" then
            fail(file, line, format("%s: pattern must be a string, got %s", what, type(pattern)))
          end
          local ok, problem = pcall(find, "", pattern)
          if not ok then fail(file, line, format("%s: bad pattern %q: %s", what, pattern, problem)) end
        end

        local function push(dev, text, kind)
          local open = pending[dev]
          if open then
            -- The first line after pending text is the line that text began.
            pending[dev] = nil
            local skip = open.skip
            if skip > 0 and text:sub(1, skip) == open.text:sub(1, skip) then text = text:sub(skip + 1) end
          end
          local buffer = buffers[dev]
          buffer.tail = buffer.tail + 1
          buffer[buffer.tail] = { text = text, kind = kind }
          if buffer.tail - buffer.head >= MAX_BUFFERED then
            buffer[buffer.head] = nil
            buffer.head = buffer.head + 1
          end
        end

        local function on_event(kind, dev, a, b, c, d, e, f)
          if kind == "line" then
            push(dev, a, b)
            if b == "notification" and handlers[dev][1] then
              queued.tail = queued.tail + 1
              queued[queued.tail] = { dev, a }
            end
          elseif kind == "line_event" then
            if line_handlers[dev][1] then
              local event = { event = a, byte = b, changed = {} }
              for name in c:gmatch("%S+") do event[name] = true end
              for _, name in ipairs({ "cts", "dsr", "dcd", "ri" }) do
                if a == "modem_lines" then event[name] = event[name] or false else event[name] = nil end
              end
              for name in d:gmatch("%S+") do event.changed[#event.changed + 1] = name end
              queued.tail = queued.tail + 1
              queued[queued.tail] = { dev, nil, event }
            end
          elseif kind == "pending" then
            local open = pending[dev]
            if open and open.start == b then open.text = a else pending[dev] = { text = a, start = b, skip = 0 } end
          elseif kind == "done" then
            local key = dev .. ":" .. a
            if queries[key] then
              if c and (#c > 0 or e) then pending[dev] = nil end
              results[key] = { outcome = b, lines = c, message = d, final = e }
            elseif sends[key] ~= nil then
              sends[key] = nil
              if c then
                for i = 1, #c do push(dev, c[i], "reply") end
                if e then push(dev, e, "reply") end
              end
            end
            -- The prompt that ended a reply is what the console shows now.
            if f then pending[dev] = { text = f, skip = 0, taken = true } end
          elseif kind == "written" then
            sends[dev .. ":" .. a] = nil
          elseif kind == "ended" then
            ended[dev] = { reason = a, lost = b }
            for key in pairs(sends) do
              if key:match("^(%d+):") == tostring(dev) then sends[key] = nil end
            end
          end
        end

        local function run_handlers()
          if in_handler then return end
          while queued.head <= queued.tail do
            local item = queued[queued.head]
            queued[queued.head] = nil
            queued.head = queued.head + 1
            local dev, text, event = item[1], item[2], item[3]
            for _, handler in ipairs(event and line_handlers[dev] or {}) do
              if handler.name == nil or handler.name == event.event then
                in_handler = true
                local ok, problem = xpcall(handler.fn, located, event)
                in_handler = false
                if not ok then error(problem, 0) end
              end
            end
            for _, handler in ipairs(event and {} or handlers[dev]) do
              local found = pack(find(text, handler.pattern))
              if found[1] then
                in_handler = true
                local ok, problem = xpcall(handler.fn, located, text, unpack(found, 3, found.n))
                in_handler = false
                if not ok then error(problem, 0) end
              end
            end
          end
        end

        local function pump(deadline)
          local kind, dev, a, b, c, d, e, f = core.next(deadline)
          if kind == nil then return false end
          on_event(kind, dev, a, b, c, d, e, f)
          run_handlers()
          return true
        end

        -- Pumps events (running handlers) until ready() returns a non-nil value or
        -- the deadline (ms since the run started; nil: none) has passed and every
        -- event that arrived by then has been taken: core.next gives none that came
        -- later, so a wait ends even while events keep coming faster than handled.
        local function wait_until(ready, deadline)
          while true do
            local value = ready()
            if value ~= nil then return value end
            if not pump(deadline) and deadline and core.now() >= deadline then return nil end
          end
        end

        local function query(dev, command, timeout)
          local file, line = site()
          if type(command) ~= "string" then
            fail(file, line, "query: command must be a string, got " .. type(command))
          end
          timeout = checked_timeout(timeout, "query", file, line)
          if ended[dev] then lost(dev, file, line) end
          local id, refused = core.submit(dev, command, timeout)
          if not id then fail(file, line, "query: " .. refused) end
          local key = dev .. ":" .. id
          queries[key] = true
          local result = wait_until(function()
            return results[key] or (ended[dev] and { outcome = "not_sent" }) or nil
          end)
          queries[key], results[key] = nil, nil
          if result.lines then received(dev, result.lines, result.final) end
          if result.outcome == "reply" then
            local reply = result.lines
            reply.final = result.final
            return reply
          elseif result.outcome == "timeout" or result.outcome == "error_reply"
            or (reconnects[dev] and not ended[dev]) then
            return nil, failure {
              kind = result.outcome, message = result.message, command = command, device = label(dev),
              lines = result.lines, final = result.final, timeout_ms = timeout,
            }
          end
          lost(dev, file, line)
        end

        local function send(dev, command)
          local file, line = site()
          if type(command) ~= "string" then
            fail(file, line, "send: command must be a string, got " .. type(command))
          end
          if ended[dev] then lost(dev, file, line) end
          local id, refused = core.submit(dev, command, default_timeout)
          if not id then fail(file, line, "send: " .. refused) end
          sends[dev .. ":" .. id] = default_timeout > 0
          return true
        end

        local function checked_bytes(bytes, what, file, line)
          if type(bytes) ~= "string" then
            fail(file, line, format("%s: bytes must be a string, got %s", what, type(bytes)))
          end
        end

        -- A raw write in turn with the commands; the end of the script waits for it
        -- as for a send.
        local function write(dev, bytes)
          local file, line = site()
          checked_bytes(bytes, "write", file, line)
          if ended[dev] then lost(dev, file, line) end
          if bytes ~= "" then sends[dev .. ":" .. core.write(dev, bytes, false)] = default_timeout > 0 end
          return true
        end

        local function write_now(dev, bytes)
          local file, line = site()
          checked_bytes(bytes, "write_now", file, line)
          if ended[dev] then lost(dev, file, line) end
          if bytes ~= "" then core.write(dev, bytes, true) end
          return true
        end

        local function read(dev, n, timeout)
          local file, line = site()
          if math_type(n) == nil or n ~= n // 1 or n < 1 or n > READ_LIMIT then
            fail(file, line, format("read: count must be a whole number of bytes from 1 to %d", READ_LIMIT))
          end
          timeout = checked_timeout(timeout, "read", file, line)
          local deadline = timeout > 0 and core.now() + timeout or nil
          local bytes = wait_until(function()
            local taken = core.read(dev, n, false)
            if taken then return taken end
            if ended[dev] then return false end
          end, deadline)
          if bytes then
            received(dev, { bytes })
            return bytes
          end
          local rest = core.read(dev, n, true)
          if rest then
            received(dev, { rest })
            return rest
          end
          if bytes == false then lost(dev, file, line) end
          return nil, "timeout"
        end

        -- Takes no argument: `device.discard_input()` gives `extra` nil and nothing after.
        local function discard_input(dev, extra, ...)
          if extra ~= nil or select("#", ...) > 0 then
            local file, line = site()
            fail(file, line, "discard_input: takes no arguments, got " .. type(extra))
          end
          return core.discard(dev)
        end

        -- Waits until what the script queued on the device (its sends and writes) went
        -- out; a device gone before or meanwhile stops the script there.
        local function settle(dev, file, line)
          if ended[dev] then lost(dev, file, line) end
          local prefix = dev .. ":"
          wait_until(function()
            if ended[dev] then return true end
            for key in pairs(sends) do if key:sub(1, #prefix) == prefix then return nil end end
            return true
          end)
          if ended[dev] then lost(dev, file, line) end
        end

        local PROTOCOLS = { xmodem = true, ["xmodem-crc"] = true, ["xmodem-1k"] = true, ymodem = true }
        local TRANSFER_OPTIONS = { protocol = true, command = true, start_timeout = true, overwrite = true }

        -- send_file and receive_file: checks the options, waits until what the script
        -- queued on the device went out (the transfer holds the queue), then transfers.
        local function transfer(dev, direction, path, options, file, line)
          local what = direction .. "_file"
          if type(path) ~= "string" then fail(file, line, format("%s: path must be a string, got %s", what, type(path))) end
          if options ~= nil and type(options) ~= "table" then
            fail(file, line, format("%s: options must be a table, got %s", what, type(options)))
          end
          options = options or {}
          for key in pairs(options) do
            if not TRANSFER_OPTIONS[key] then
              fail(file, line, format("%s: unknown option '%s' (protocol, command, start_timeout, overwrite)", what, tostring(key)))
            end
          end
          local protocol = options.protocol or "ymodem"
          if not PROTOCOLS[protocol] then
            fail(file, line, format("%s: protocol must be xmodem, xmodem-crc, xmodem-1k or ymodem, got %s", what, tostring(protocol)))
          end
          local command = options.command
          if command ~= nil and type(command) ~= "string" then
            fail(file, line, format("%s: command must be a string, got %s", what, type(command)))
          end
          local start = options.start_timeout or 60
          if math_type(start) ~= "integer" or start < 1 or start > 3600 then
            fail(file, line, format("%s: start_timeout must be a whole number of seconds from 1 to 3600", what))
          end
          if options.overwrite ~= nil and type(options.overwrite) ~= "boolean" then
            fail(file, line, format("%s: overwrite must be true or false, got %s", what, type(options.overwrite)))
          end
          settle(dev, file, line)
          return core.transfer(dev, direction, path, protocol, command, start, options.overwrite == true)
        end

        local function send_file(dev, path, options)
          local file, line = site()
          return transfer(dev, "send", path, options, file, line)
        end

        local function receive_file(dev, path, options)
          local file, line = site()
          return transfer(dev, "receive", path or ".", options, file, line)
        end

        -- Matches `pattern` in the device's pending text (after what was consumed):
        -- consumes the buffered lines and the text up to the end of the match, in the
        -- device too when it can (so the line that text began starts after it), and
        -- returns the unconsumed text it was found in and the captures.
        local function scan_pending(dev, pattern)
          local open = pending[dev]
          if not open then return nil end
          local found = pack(find(open.text, pattern, open.skip + 1))
          if not found[1] then return nil end
          local buffer = buffers[dev]
          for j = buffer.head, buffer.tail do buffer[j] = nil end
          buffer.head = buffer.tail + 1
          local text, stop = open.text:sub(open.skip + 1), found[2]
          if open.taken or open.start and stop > 0 and core.consume(dev, open.start, stop) then
            local rest = open.text:sub(stop + 1)
            pending[dev] = rest ~= "" and { text = rest, skip = 0, taken = open.taken } or nil
          elseif stop > open.skip then
            open.skip = stop
          end
          return { text, unpack(found, 3, found.n) }
        end

        -- Looks for the first buffered line at or after position `from` that matches
        -- (then, for expect, in the pending text); returns the match (consuming the
        -- lines up to it) and where to look next, so a wait looks at each arriving
        -- line once.
        local function scan(dev, pattern, notifications_only, from)
          local buffer = buffers[dev]
          if from < buffer.head then from = buffer.head end
          for i = from, buffer.tail do
            local item = buffer[i]
            if not notifications_only or item.kind == "notification" then
              local found = pack(find(item.text, pattern))
              if found[1] then
                for j = buffer.head, i do buffer[j] = nil end
                buffer.head = i + 1
                return { item.text, unpack(found, 3, found.n) }, i + 1
              end
            end
          end
          if not notifications_only then
            local match = scan_pending(dev, pattern)
            if match then return match, buffer.tail + 1 end
          end
          return nil, buffer.tail + 1
        end

        local function match_line(what, dev, pattern, timeout, notifications_only, file, line)
          checked_pattern(pattern, what, file, line)
          timeout = checked_timeout(timeout, what, file, line)
          local deadline = timeout > 0 and core.now() + timeout or nil
          local from = buffers[dev].head
          local found = wait_until(function()
            local match
            match, from = scan(dev, pattern, notifications_only, from)
            if match then return match end
            if ended[dev] then return false end
          end, deadline)
          local description = format("%s %q", what, pattern)
          local expected = format("a %s matching %q", notifications_only and "notification" or "line", pattern)
          if found then
            received(dev, { found[1] })
            core.report("passed", description, file, line, dev, { found[1] }, nil, expected)
            return unpack(found)
          elseif found == false then
            core.report("lost", description, file, line, dev, nil, "device disconnected (" .. ended[dev].reason .. ")",
              expected)
            lost(dev, file, line)
          end
          local message = format("no %s matching %q within %d ms",
            notifications_only and "notification" or "line", pattern, timeout)
          core.report("timeout", description, file, line, dev, nil, message, expected)
          return nil, failure { kind = "timeout", message = message, device = label(dev), pattern = pattern, timeout_ms = timeout }
        end

        local function expect(dev, pattern, timeout)
          local file, line = site()
          return match_line("expect", dev, pattern, timeout, false, file, line)
        end

        local function await(dev, pattern, timeout)
          local file, line = site()
          return match_line("await", dev, pattern, timeout, true, file, line)
        end

        local function on(dev, pattern, fn)
          local file, line = site()
          checked_pattern(pattern, "on", file, line)
          if type(fn) ~= "function" then fail(file, line, "on: handler must be a function, got " .. type(fn)) end
          local list = handlers[dev]
          list[#list + 1] = { pattern = pattern, fn = fn }
        end

        local line_event_names = {
          ["break"] = true, framing_error = true, parity_error = true, framing_or_parity_error = true,
          overrun = true, modem_lines = true,
        }

        local function on_line_event(dev, name, fn)
          local file, line = site()
          if fn == nil and type(name) == "function" then name, fn = nil, name end
          if name ~= nil and not line_event_names[name] then
            fail(file, line, format("on_line_event: unknown event %q (break, framing_error, parity_error, "
              .. "framing_or_parity_error, overrun, modem_lines)", tostring(name)))
          end
          if type(fn) ~= "function" then fail(file, line, "on_line_event: handler must be a function, got " .. type(fn)) end
          local list = line_handlers[dev]
          list[#list + 1] = { name = name, fn = fn }
        end

        local function sleep(ms)
          local file, line = site()
          if math_type(ms) == nil or ms < 0 then
            fail(file, line, "sleep: duration must be a number of milliseconds, 0 or more")
          end
          wait_until(function() return nil end, core.now() + ms)
        end

        local function emit(value)
          local file, line = site()
          if type(value) ~= "table" then fail(file, line, "emit: expected a table, got " .. type(value)) end
          local problem = core.emit(value, file, line)
          if problem then fail(file, line, "emit: " .. problem) end
        end

        local function check(condition, message)
          local file, line = site()
          local text = nil
          if message ~= nil then text = tostring(message) end
          if condition then
            core.report("passed", text, file, line, latest and latest.dev)
          elseif latest then
            core.report("failed", text, file, line, latest.dev, latest.lines)
          else
            core.report("failed", text, file, line)
          end
          return condition and true or false
        end

        local line_control = load(core.line_control, "=tether", "t")(core, site, fail, settle)

        local function bind(dev)
          local object = { name = label(dev) }
          local function method(impl)
            return function(first, ...)
              if rawequal(first, object) then return impl(dev, ...) end
              return impl(dev, first, ...)
            end
          end
          local function shared(impl)
            return function(first, ...)
              if rawequal(first, object) then return impl(...) end
              return impl(first, ...)
            end
          end
          object.query, object.send, object.expect = method(query), method(send), method(expect)
          object.await, object.on, object.on_line_event = method(await), method(on), method(on_line_event)
          object.write, object.write_now = method(write), method(write_now)
          object.read, object.discard_input = method(read), method(discard_input)
          object.send_file, object.receive_file = method(send_file), method(receive_file)
          object.sleep, object.emit, object.check = shared(sleep), shared(emit), shared(check)
          for name, impl in pairs(line_control) do object[name] = method(impl) end
          return object
        end

        local known, all = {}, {}
        local unnamed, first
        for dev = 1, #names do
          local object = bind(dev)
          first = first or object
          if names[dev] then
            all[names[dev]] = object
            known[#known + 1] = names[dev]
          else
            unnamed = unnamed or object
          end
        end
        local known_text = #known > 0 and concat(known, ", ") or "no named devices"
        devices = setmetatable(all, {
          __index = function(_, key)
            error(format("unknown device '%s' (this run has: %s)", tostring(key), known_text), 2)
          end,
        })
        device = unnamed or first
        _G.sleep, _G.emit, _G.check = sleep, emit, check
        _G.print = function(...)
          local parts = {}
          for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
          stderr:write(concat(parts, "\t"), "\n")
        end
        -- Standard output carries the run's records (text or JSON Lines): what the
        -- script writes with io.write or to io.stdout goes to standard error, as print's.
        io.output(stderr)
        io.stdout = stderr

        -- os.exit ends the script, not tether: the run still closes its devices and
        -- writes its summary. A failing code (false, or a number other than 0) is a
        -- failed check at the call.
        os.exit = function(code)
          local file, line = site()
          if code ~= nil and code ~= true and code ~= 0 then
            core.report("failed", format("os.exit(%s)", tostring(code)), file, line)
          end
          error(setmetatable({}, Exit), 0)
        end

        local function drain()
          local ending = core.now()
          while pump(ending) do end
          wait_until(function()
            for _, bounded in pairs(sends) do if bounded then return nil end end
            return true
          end)
        end

        return function(main)
          local ok, problem = xpcall(main, located)
          if not ok and getmetatable(problem) == Exit then ok = true end
          if ok then ok, problem = xpcall(drain, located) end
          if not ok and getmetatable(problem) == Exit then ok = true end
          local timeouts, errors = 0, 0
          for _, kind in pairs(unhandled) do
            if kind == "timeout" then timeouts = timeouts + 1 else errors = errors + 1 end
          end
          if ok then return "completed", nil, timeouts, errors end
          if getmetatable(problem) == Lost then return "lost", problem.message, timeouts, errors end
          return "error", problem, timeouts, errors
        end
        """#
}
