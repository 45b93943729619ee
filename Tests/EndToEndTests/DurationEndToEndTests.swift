import Testing

/// One duration syntax for every duration option: `500ms`, `3s`, `1.5s`, `2m`; a bare
/// number in the option's old unit, with a warning where it reads like another.
@Suite struct DurationEndToEndTests {
    @Test(arguments: [
        "--timeout 2s", "--timeout 1500ms", "--timeout 1.5s", "--timeout 1m", "--timeout 800", "--timeout .5s",
        "--timeout 1m30s",
    ])
    func aTimeoutTakesAUnit(option: String) throws {
        let words = option.split(separator: " ").map(String.init)
        let result = try Subprocess.run("tether", ["query", "--sim", "--quiet"] + words + ["*IDN?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "", "\(result.stderr)")
    }

    /// `--duration 3000` was silently 50 minutes.
    @Test func aBareNumberThatReadsLikeMillisecondsIsWarnedOf() throws {
        let result = try Subprocess.run(
            "tether", ["monitor", "--sim", "--count", "1", "--quiet", "--duration", "3000"])
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "Warning: '--duration 3000' is 50m (a bare number is seconds here); did you mean 3000ms (3s)? "
                + "Give the unit to say which\n")
    }

    @Test func aDurationWithItsUnitIsTakenAsWrittenWithoutAWarning() throws {
        let result = try Subprocess.run("tether", ["monitor", "--sim", "--quiet", "--duration", "700ms"])
        // Ran out of --duration with no --until: success.
        #expect(result.status == 0)
        #expect(result.stderr == "", "\(result.stderr)")
    }

    @Test func aTinyBareTimeoutIsWarnedOf() throws {
        let result = try Subprocess.run(
            "tether", ["query", "--sim", "--quiet", "--timeout", "5", "--latency", "50", "X"])
        #expect(
            result.stderr.hasPrefix(
                "Warning: '--timeout 5' is 5 ms (a bare number is ms here); did you mean 5s? Give the unit to say which\n"
            ),
            "\(result.stderr)")
    }

    /// `--break 5` is 5 ms, as `--timeout 5` is: warned of in the same words.
    @Test(arguments: ["--break", "--pulse-dtr"])
    func aTinyBareBreakOrPulseIsWarnedOf(option: String) throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "--quiet", option, "5", "*IDN?"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr
                == "Warning: '\(option) 5' is 5 ms (a bare number is ms here); did you mean 5s? Give the unit to say which\n"
        )
    }

    @Test(arguments: [
        ("--timeout", "5x", "unknown unit 'x': write ms, s, m or h after the number (500ms, 3s, 2m)"),
        ("--linger", "2d", "unknown unit 'd': write ms, s, m or h after the number (500ms, 3s, 2m)"),
        ("--break", "0.5ms", "a duration is whole milliseconds"),
        ("--timeout", "25h", "must be a duration such as 500ms or 2m, 0 to 24h; a bare number is ms"),
    ])
    func aBadDurationIsNamed(option: String, value: String, message: String) throws {
        let result = try Subprocess.run("tether", ["query", "--sim", option, value, "X"])
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(
            result.stderr.hasPrefix("Error: The value '\(value)' is invalid for '\(option) <duration>': \(message)"))
    }

    @Test func theRangeAndTheSyntaxAreInTheHelp() throws {
        let help = try Subprocess.run("tether", ["monitor", "--help"]).stdout
        #expect(help.contains("--duration <duration>"))
        #expect(help.contains("(allowed: 1ms or more; a bare number is seconds)"), "\(help)")
    }
}
