import Foundation
import Testing
import TetherSimulator

/// `monitor --until` and `--only`, through the built CLI and libserialport against a
/// pty: a boot log captured up to its prompt, GPS sentences picked out, and the exit
/// codes that say what ended it (docs/CAPTURE.md, "Capturing until a line").
@Suite struct MonitorUntilEndToEndTests {
    typealias Chunk = ScriptedDevice.Chunk

    /// A board's boot: a banner in two pieces, the log, then U-Boot's prompt with no line
    /// end, and nothing after it.
    static func bootingBoard() -> ScriptedDevice {
        ScriptedDevice(
            onOpen: [
                Chunk("\r\nU-Boot 2023.01 ", after: .milliseconds(300)),
                Chunk("(Jan 01 2023)\r\n", after: .milliseconds(200)),
                Chunk("DRAM:  128 MiB\r\n=> bootcmd is not set\r\n", after: .milliseconds(50)),
                Chunk("=> ", after: .milliseconds(200)),
            ])
    }

    /// Ends by itself at the prompt, exit 0: the log, each line once, then the prompt
    /// (`$`: the output line that begins with `=> ` does not match).
    @Test func untilThePromptEndsWithTheBootLog() throws {
        let simulator = try Simulator(device: Self.bootingBoard())
        defer { simulator.stop() }
        let result = try Subprocess.run("tether", ["monitor", simulator.devicePath, "--until", "^=> $"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == "\nU-Boot 2023.01 (Jan 01 2023)\nDRAM:  128 MiB\n=> bootcmd is not set\n=> \n"
                || result.stdout == "U-Boot 2023.01 (Jan 01 2023)\nDRAM:  128 MiB\n=> bootcmd is not set\n=> \n",
            "\(result.stdout)")
    }

    /// A line that matches ends it as well, and is shown first.
    @Test func untilALineEndsAtThatLine() throws {
        let simulator = try Simulator(device: Self.bootingBoard())
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["monitor", simulator.devicePath, "--until", "^DRAM", "--format", "json"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try JSONLines.parse(result.stdout).compactMap { $0["line"] as? String }
        #expect(lines.last == "DRAM:  128 MiB", "\(lines)")
    }

    /// `--duration` running out before a match is not success: exit 75.
    @Test func untilWithoutAMatchWithinTheDurationExits75() throws {
        let simulator = try Simulator(device: Self.bootingBoard())
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["monitor", simulator.devicePath, "--until", "login: ", "--duration", "2"], timeout: 120)
        #expect(result.status == 75, "\(result.stderr)")
        #expect(result.stdout.contains("DRAM:  128 MiB"), "\(result.stdout)")
    }

    /// `--only` shows only matching lines, and `--count` counts those.
    @Test func matchShowsOnlyMatchingLinesAndCountCountsThem() throws {
        let sentences = ["$GPGGA,1", "$GPRMC,1", "$GPGSV,1", "$GPRMC,2", "$GPGGA,2", "$GPRMC,3"]
        let gps = ScriptedDevice(onOpen: sentences.map { Chunk($0 + "\r\n", after: .milliseconds(100)) })
        let simulator = try Simulator(device: gps)
        defer { simulator.stop() }
        let result = try Subprocess.run(
            "tether", ["monitor", simulator.devicePath, "--only", #"^\$GPRMC"#, "--count", "2"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "$GPRMC,1\n$GPRMC,2\n", "\(result.stdout)")
    }

    /// A pattern that is not a regular expression, or an empty one, is a usage error.
    @Test(arguments: [["--until", "(unclosed"], ["--only", ""]])
    func badPatternIsAUsageError(arguments: [String]) throws {
        let result = try Subprocess.run("tether", ["monitor", "--sim"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr)")
    }
}
