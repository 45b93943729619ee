-- Two devices coordinated by the script: when the chamber raises an alarm, turn the
-- second chamber (standing in for a cooler) down to its lowest setpoint.
--   tether run examples/alarm.lua --port chamber=sim --port cooler=sim
local chamber, cooler = devices.chamber, devices.cooler

chamber.on("^!ALARM (%S+)", function(line, kind)
  local reply = cooler.query("SETP 5")
  emit({ alarm = kind, cooler_switched = reply ~= nil and reply[1] == "OK" })
end)

chamber.send("ALARM:TEST")
sleep(500) -- the handler runs while the script waits
local setpoint = cooler.query("SETP?")
check(setpoint and setpoint[1] == "5.0", "the cooler was switched by the alarm")
