-- Sweep the chamber's setpoint, read each one back and record the temperature:
--   tether run examples/sweep.lua --sim
local identity = device.query("*IDN?")
check(identity and identity[1]:match("^TETHER,ENV%-1,"), "it is an ENV-1 chamber")

for _, setpoint in ipairs({ 20, 25, 30 }) do
  local reply = device.query("SETP " .. setpoint)
  check(reply and reply[1] == "OK", "SETP " .. setpoint .. " accepted")
  local back = device.query("SETP?")
  check(back and tonumber(back[1]) == setpoint, "setpoint reads back as " .. setpoint)
  local temperature = device.query("TEMP?")
  emit({ setpoint = setpoint, temperature = temperature and tonumber(temperature[1]) })
end

-- An out-of-range setpoint is an error reply: query returns nil and the error.
local reply, err = device.query("SETP 99")
check(reply == nil and err.kind == "error_reply", "SETP 99 is refused")

-- ALARM:TEST makes the chamber send an alarm notification.
device.send("ALARM:TEST")
local line, temperature = device.await("^!ALARM test temp=(%S+)", 2000)
check(line ~= nil, "the test alarm arrives")
emit({ alarm_temperature = tonumber(temperature) })
