import Foundation
import Testing

/// A failed write to standard output ends tether with 74 and a message on stderr.
@Suite struct OutputFailureEndToEndTests {
    /// `tether query --sim --format json '*IDN?' > /dev/full` exited 0.
    @Test(arguments: [
        "query --sim --format json '*IDN?'", "query --sim '*IDN?'", "monitor --sim --count 1", "list", "--help",
        "query --help", "--version", "run - --sim <<< '*IDN?'",
    ])
    func writingToAFullDeviceIsAnIOError(command: String) throws {
        let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path
        let result = try Subprocess.run(path: "/bin/bash", ["-c", "'\(tether)' \(command) > /dev/full"])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("Error: cannot write to standard output: No space left on device\n"))
    }

    /// `--log /dev/full` lost the whole transcript and exited 0: a log that cannot be
    /// written ends tether with 74, naming the file.
    @Test(arguments: ["query --sim --log /dev/full 'TEMP?'", "monitor --sim --count 2 --log /dev/full"])
    func aLogThatCannotBeWrittenIsAnIOError(command: String) throws {
        let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path
        let result = try Subprocess.run(path: "/bin/bash", ["-c", "'\(tether)' \(command)"])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix("Error: cannot write to /dev/full: No space left on device\n"), "\(result.stderr)")
    }

    /// `run` with `--log /dev/full` said `NOT RUN … (device disconnected (closed))`:
    /// the device was fine, tether stopped because the log failed. It says so.
    @Test func aRunStoppedByItsLogSaysWhy() throws {
        let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path
        let result = try Subprocess.run(
            path: "/bin/bash", ["-c", "'\(tether)' run - --sim --log /dev/full <<< $'*IDN?\\nTEMP?'"])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(!result.stdout.contains("disconnected"), "\(result.stdout)")
        #expect(result.stdout.contains("log write failed"), "\(result.stdout)")
    }

    /// A log on a disk that filled ended with a torn record (`{"line":"!BURS`, no line
    /// end) although the exit was a clean 74. The file is full at 1024 bytes here (a
    /// file size limit, `ulimit -f`, with SIGXFSZ ignored so the write fails with EFBIG
    /// as on a full disk): a record is written whole or not at all.
    @Test(arguments: ["query", "run"])
    func aFullDiskLeavesNoTornRecord(command: String) throws {
        let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path
        let folder = try TemporaryFolder()
        let log = folder.path("full.jsonl")
        let commands = (1...40).map { "'TEMP? \($0)'" }.joined(separator: " ")
        let invocation =
            command == "query"
            ? "'\(tether)' query --sim --log '\(log)' \(commands)"
            : "printf 'TEMP?\\n%.0s' {1..40} | '\(tether)' run - --sim --log '\(log)'"
        let result = try Subprocess.run(
            path: "/bin/bash", ["-c", "trap '' XFSZ; ulimit -f 1; \(invocation)"], timeout: 60)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("Error: cannot write to \(log): File too large\n"), "\(result.stderr)")
        let written = try Data(contentsOf: URL(fileURLWithPath: log))
        #expect(written.count > 0 && written.count <= 1024, "\(written.count) bytes")
        #expect(written.last == UInt8(ascii: "\n"), "the file ends mid-record")
        #expect(try JSONLines.parse(String(decoding: written, as: UTF8.self)).count > 0)
    }
}
