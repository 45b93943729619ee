import Foundation
import Testing

/// The text of a run over named devices, and what `--help` lists.
@Suite struct RunOutputEndToEndTests {
    /// Reply continuation lines were not indented past the `[name] ` prefix, and
    /// "connected to sim (…)" did not say which device.
    @Test func namedDeviceRepliesLineUp() throws {
        let result = try Subprocess.run(
            "tether", ["run", "-", "--lua", "--port", "modem=sim:at-modem"], stdin: "devices.modem:query('AT+CSQ')\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("[modem] AT+CSQ → +CSQ: 20,99\n                 OK  ("), "\(result.stdout)")
        #expect(result.stderr.hasPrefix("[modem] connected to sim:at-modem (/dev/pts/"), "\(result.stderr)")
    }

    /// `emit` text did not escape quotes inside a quoted value.
    @Test func emitEscapesQuotes() throws {
        let result = try Subprocess.run(
            "tether", ["run", "-", "--lua", "--sim"], stdin: #"emit{ say = 'he said "hi"', ok = true }"# + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"EMIT    stdin:1  ok=true say="he said \"hi\"""#), "\(result.stdout)")
    }

    /// `io.write` in a Lua script wrote into standard output, between the JSON Lines.
    @Test func luaStandardOutputStaysOutOfTheRecords() throws {
        let script = "io.write('progress ', 1, '\\n')\nio.stdout:write('done\\n')\ndevice:query('*IDN?')\n"
        let result = try Subprocess.run("tether", ["run", "-", "--lua", "--sim", "--format", "json"], stdin: script)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
        #expect(result.stderr.contains("progress 1\ndone\n"), "\(result.stderr)")
    }

    /// `monitor --help` listed options that do not apply to it.
    @Test func monitorHelpListsWhatApplies() throws {
        let result = try Subprocess.run("tether", ["monitor", "--help"])
        #expect(result.status == 0)
        for option in ["--timeout", "--eol", "--error-pattern", "--check-errors"] {
            #expect(!result.stdout.contains(option), "\(option)")
        }
        #expect(result.stdout.contains("--notify-pattern"))
    }
}
