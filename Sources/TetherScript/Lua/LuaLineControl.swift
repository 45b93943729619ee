/// The Lua methods that drive a device's lines and settings — `set_lines`, `reset`,
/// `send_break`, `set_baud` (docs/SCRIPTING.md, "Modem lines, breaks and baud rate") —
/// a chunk the ``LuaPrelude`` loads with its helpers and binds to each device.
///
/// Each waits until what the script queued on the device went out (its `send`s and
/// `write`s), so the lines change after them, in order; then it blocks until the port
/// loop has run the sequence (``RunMediator/run(_:on:)``). A mistake of the script
/// (a wrong type, an unknown sequence name) raises an error at the call; a port that
/// refuses (no line control, a driver that refuses RTS, a device gone) makes the method
/// return `nil` and the message.
///
/// Primitives: `core.lines(dev, text, encoded)` runs the sequence named or written in
/// `text` (esptool's syntax), or the steps `encoded` as `dtr,rts,break,hold_ms;…` (each
/// line 1, 0 or -1 for unchanged) → `true`, or `nil`, a message and whether the text
/// was refused; `core.baud(dev, rate)` → the settings read back (`921600 8N1`), or
/// `nil` and a message.
enum LuaLineControl {
    static let chunkName = "=tether"

    static let source = #"""
        local core, site, fail, settle = ...
        local format, concat, type, pairs, ipairs, tostring = string.format, table.concat, type, pairs, ipairs, tostring
        local math_type = math.type

        local function state(value, what, key, file, line)
          if value == nil then return "-1" end
          if type(value) ~= "boolean" then
            fail(file, line, format("%s: %s must be true or false, got %s", what, key, type(value)))
          end
          return value and "1" or "0"
        end

        local STEP_KEYS = { dtr = true, rts = true, ["break"] = true, hold = true }

        local function encode(steps, what, file, line)
          local parts = {}
          for index, step in ipairs(steps) do
            if type(step) ~= "table" then
              fail(file, line, format("%s: step %d must be a table such as {dtr = true, rts = false, hold = 100}", what, index))
            end
            for key in pairs(step) do
              if not STEP_KEYS[key] then
                fail(file, line, format("%s: step %d: unknown key '%s' (dtr, rts, break, hold)", what, index, tostring(key)))
              end
            end
            local hold = step.hold or 0
            if math_type(hold) ~= "integer" or hold < 0 or hold > 60000 then
              fail(file, line, format("%s: step %d: hold must be a whole number of milliseconds from 0 to 60000", what, index))
            end
            parts[index] = concat({
              state(step.dtr, what, "dtr", file, line), state(step.rts, what, "rts", file, line),
              state(step["break"], what, "break", file, line), tostring(hold),
            }, ",")
          end
          if #parts == 0 then fail(file, line, what .. ": the sequence has no steps") end
          return concat(parts, ";")
        end

        local function run(dev, text, encoded, what, file, line)
          settle(dev, file, line)
          local ok, message, refused = core.lines(dev, text, encoded)
          if refused then fail(file, line, what .. ": " .. message) end
          if ok then return true end
          return nil, message
        end

        local function set_lines(dev, lines)
          local file, line = site()
          if type(lines) ~= "table" then
            fail(file, line, "set_lines: expected a table such as {dtr = true, rts = false}, got " .. type(lines))
          end
          for key in pairs(lines) do
            if key ~= "dtr" and key ~= "rts" then
              fail(file, line, format("set_lines: unknown line '%s' (dtr, rts)", tostring(key)))
            end
          end
          if lines.dtr == nil and lines.rts == nil then fail(file, line, "set_lines: give dtr, rts or both") end
          return run(dev, nil, encode({ { dtr = lines.dtr, rts = lines.rts } }, "set_lines", file, line), "set_lines", file, line)
        end

        local function reset(dev, sequence)
          local file, line = site()
          if type(sequence) == "string" then return run(dev, sequence, nil, "reset", file, line) end
          if type(sequence) == "table" then return run(dev, nil, encode(sequence, "reset", file, line), "reset", file, line) end
          fail(file, line, "reset: expected a sequence name such as 'esptool-classic', esptool's D0|R1|W0.1… or a table of steps, got " .. type(sequence))
        end

        local function send_break(dev, ms)
          local file, line = site()
          ms = ms == nil and 250 or ms
          if math_type(ms) ~= "integer" or ms < 1 or ms > 60000 then
            fail(file, line, "send_break: length must be a whole number of milliseconds from 1 to 60000")
          end
          return run(dev, nil, format("-1,-1,1,%d;-1,-1,0,0", ms), "send_break", file, line)
        end

        local function set_baud(dev, rate)
          local file, line = site()
          if math_type(rate) ~= "integer" or rate < 1 or rate > 2147483647 then
            fail(file, line, "set_baud: the baud rate must be a whole number of bit/s from 1 to 2147483647")
          end
          settle(dev, file, line)
          return core.baud(dev, rate)
        end

        return { set_lines = set_lines, reset = reset, send_break = send_break, set_baud = set_baud }
        """#
}
