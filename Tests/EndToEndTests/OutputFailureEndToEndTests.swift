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
}
