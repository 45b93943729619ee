import Foundation
import Testing

/// `tether run`'s results for CI, read by real consumers: the `--junit` report by
/// junitparser (Debian's `python3-junitparser`), `--format tap` by `prove` (Perl's TAP
/// harness); both installed by `scripts/install-deps --test`.
@Suite struct RunResultsEndToEndTests {
    /// A query file with a pass, a failure, an error reply and a timeout (`*OPC?` gets
    /// no reply from the env profile within 300 ms).
    static let queries = "*IDN? =~ ^TETHER\nSETP 25 == OK\nSETP? == 30.0\nBOGUS\n"

    /// Reads a JUnit file with junitparser and prints, per suite, its name and counts,
    /// then per case its name, result tag, message and text, and time — one JSON line.
    static let reader = """
        import json, sys
        from junitparser import JUnitXml, TestSuite
        xml = JUnitXml.fromfile(sys.argv[1])
        suites = [xml] if isinstance(xml, TestSuite) else list(xml)
        out = []
        for suite in suites:
            cases = []
            for case in suite:
                results = [{"tag": r._tag, "message": r.message, "type": r.type, "text": r.text} for r in case.result]
                cases.append({"name": case.name, "classname": case.classname, "time": case.time, "results": results})
            out.append({"name": suite.name, "tests": suite.tests, "failures": suite.failures,
                        "errors": suite.errors, "skipped": suite.skipped, "time": suite.time, "cases": cases})
        print(json.dumps(out))
        """

    /// The suites junitparser read from `path`.
    private func readJUnit(_ path: String, in folder: TemporaryFolder) throws -> [[String: Any]] {
        let script = folder.path("read_junit.py")
        try Self.reader.write(toFile: script, atomically: true, encoding: .utf8)
        let result = try Subprocess.run(path: "/usr/bin/python3", [script, path])
        try #require(
            result.status == 0,
            "junitparser failed (install python3-junitparser: scripts/install-deps --test): \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    @Test func junitReportIsReadByJunitparserWithExpectedAndActualValues() throws {
        let folder = try TemporaryFolder()
        let report = folder.path("results.xml")
        let result = try Subprocess.run(
            "tether", ["run", "-", "--sim", "--junit", report], stdin: Self.queries)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("FAIL    stdin:3  SETP? == 30.0"), "the terminal still shows text")
        let suites = try readJUnit(report, in: folder)
        try #require(suites.count == 1)
        let suite = suites[0]
        #expect(suite["name"] as? String == "stdin")
        #expect(suite["tests"] as? Int == 4)
        #expect(suite["failures"] as? Int == 2)
        #expect(suite["errors"] as? Int == 0)
        let cases = try #require(suite["cases"] as? [[String: Any]])
        #expect(
            cases.map { $0["name"] as? String } == [
                "stdin:1 *IDN? =~ ^TETHER", "stdin:2 SETP 25 == OK", "stdin:3 SETP? == 30.0", "stdin:4 BOGUS",
            ])
        #expect((cases[0]["results"] as? [Any])?.isEmpty == true)
        let failure = try #require((cases[2]["results"] as? [[String: Any]])?.first)
        #expect(failure["tag"] as? String == "failure")
        #expect(failure["message"] as? String == "expected == 30.0, got 25.0")
        let text = failure["text"] as? String ?? ""
        #expect(text.contains("expected: == 30.0\nactual: 25.0\n"), "\(text)")
        #expect(text.contains("> SETP?\n< 25.0"), "the device lines around it: \(text)")
        // Times are seconds: the whole run took well under a minute.
        let time = try #require(cases[2]["time"] as? Double)
        #expect(time >= 0 && time < 60)
    }

    @Test func timeoutsDevicesLostAndScriptErrorsAreErrorsNotFailures() throws {
        let folder = try TemporaryFolder()
        let report = folder.path("lost.xml")
        let lost = try Subprocess.run(
            "tether", ["run", "-", "--sim", "--disconnect-after-lines", "1", "--junit", report],
            stdin: "*IDN?\n*IDN?\n*IDN?\n")
        #expect(lost.status == 74, "\(lost.stderr)")
        let lostCases = try #require(try readJUnit(report, in: folder).first?["cases"] as? [[String: Any]])
        let tags = lostCases.map { (($0["results"] as? [[String: Any]])?.first?["tag"] as? String) ?? "passed" }
        #expect(tags.contains("error") && !tags.contains("failure"), "\(lostCases)")

        let timeout = try Subprocess.run(
            "tether", ["run", "-", "--lua", "--sim", "--junit", report],
            stdin: "check(true, 'fine')\ndevice.expect('^NEVER', 200)\n")
        #expect(timeout.status == 75, "\(timeout.stderr)")
        let timeoutSuite = try #require(try readJUnit(report, in: folder).first)
        #expect(timeoutSuite["tests"] as? Int == 2, "the file is replaced, not appended to")
        #expect(timeoutSuite["errors"] as? Int == 1)
        let timedOut = try #require((timeoutSuite["cases"] as? [[String: Any]])?.last?["results"] as? [[String: Any]])
        #expect(timedOut.first?["type"] as? String == "timeout")

        let script = try Subprocess.run(
            "tether", ["run", "-", "--lua", "--sim", "--junit", report], stdin: "local x = nil + 1\n")
        #expect(script.status == 65, "\(script.stderr)")
        let scriptSuite = try #require(try readJUnit(report, in: folder).first)
        let error = try #require((scriptSuite["cases"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        #expect(error.first?["tag"] as? String == "error")
        #expect(error.first?["type"] as? String == "script_error")
        #expect((error.first?["message"] as? String)?.contains("attempt to perform arithmetic") == true)
    }

    /// One suite per script and device.
    @Test func checksAreGroupedByScriptAndDevice() throws {
        let folder = try TemporaryFolder()
        let report = folder.path("devices.xml")
        let script =
            "check(devices.a.query('*IDN?')[1] ~= nil, 'a answers')\n"
            + "devices.b.expect('^NEVER', 100)\n"
        let result = try Subprocess.run(
            "tether", ["run", "-", "--lua", "--port", "a=sim", "--port", "b=sim", "--junit", report], stdin: script)
        #expect(result.status == 75, "\(result.stderr)")
        let names = try readJUnit(report, in: folder).map { $0["name"] as? String }
        #expect(names == ["stdin [a]", "stdin [b]"])
    }

    /// A failed `check` says what the device said: the last reply the script received.
    @Test func failedCheckCarriesTheActualValueInJSON() throws {
        let result = try Subprocess.run(
            "tether", ["run", "-", "--lua", "--sim", "--format", "json"],
            stdin: "local r = device.query('SETP?')\ncheck(r[1] == '99.0', 'setpoint is 99')\n")
        #expect(result.status == 1, "\(result.stderr)")
        let check = try #require(try JSONLines.parse(result.stdout).first { $0["type"] as? String == "check" })
        #expect(check["status"] as? String == "failed")
        #expect(check["actual"] as? [String] == ["22.0"])
    }

    /// `prove --exec 'tether run --sim --format tap' FILE`: prove runs tether on each
    /// file and reads its TAP.
    @Test func proveReadsTheTAP() throws {
        let folder = try TemporaryFolder()
        let passing = folder.path("passing.txt")
        let failing = folder.path("failing.txt")
        try "*IDN? =~ ^TETHER\nSETP 25 == OK\n".write(toFile: passing, atomically: true, encoding: .utf8)
        try Self.queries.write(toFile: failing, atomically: true, encoding: .utf8)
        let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path
        let command = "\(tether) run --sim --format tap"
        let good = try Subprocess.run(path: "/usr/bin/prove", ["--exec", command, passing])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        #expect(good.stdout.contains("All tests successful."), "\(good.stdout)")
        #expect(good.stdout.contains("Tests=2"), "\(good.stdout)")
        let bad = try Subprocess.run(path: "/usr/bin/prove", ["--exec", command, failing])
        #expect(bad.status != 0)
        #expect(bad.stdout.contains("Failed 2/4 subtests"), "\(bad.stdout)")
        #expect(bad.stdout.contains("Result: FAIL"), "\(bad.stdout)")
    }

    @Test func tapOfAFailureHasItsExpectedAndActualValues() throws {
        let result = try Subprocess.run("tether", ["run", "-", "--sim", "--format", "tap"], stdin: Self.queries)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("TAP version 13\nok 1 - stdin:1 *IDN? =~ ^TETHER\n"), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "not ok 3 - stdin:3 SETP? == 30.0\n  ---\n  message: \"expected == 30.0, got 25.0\"\n"
                    + "  severity: fail\n  expected: \"== 30.0\"\n  actual: [\"25.0\"]\n"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("1..4\n"), "\(result.stdout)")
    }

    /// TAP and JUnit show a run's checks, nothing else: other commands refuse them by name.
    @Test(arguments: [["query", "--sim", "*IDN?"], ["monitor", "--sim", "--count", "1"], ["list"]])
    func otherCommandsRefuseTAP(arguments: [String]) throws {
        let result = try Subprocess.run("tether", arguments + ["--format", "tap"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: The format 'tap' cannot show "), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
