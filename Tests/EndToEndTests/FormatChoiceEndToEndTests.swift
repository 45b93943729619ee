import Foundation
import Testing

/// Output choices that cannot be honoured are refused with exit 64 and a message that
/// says what to do, before any port opens — never a silent fall-back to other output.
@Suite struct FormatChoiceEndToEndTests {
    @Test(arguments: [
        (["query", "--sim", "--format", "json", "--hex", "*IDN?"], Self.hexMessage),
        (["query", "--sim", "--hex", "--format", "json", "*IDN?"], Self.hexMessage),
        (["monitor", "--sim", "--format", "json", "--timestamps", "--count", "1"], Self.timestampsMessage),
        (["run", "-", "--sim", "--format", "json", "--timestamps"], Self.timestampsMessage),
    ])
    func textOnlyOptionsWithJSONAreRefused(arguments: [String], message: String) throws {
        let result = try Subprocess.run("tether", arguments, stdin: "*IDN?\n")
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "Error: \(message) (see 'tether \(arguments[0]) --help')\n", "\(result.stderr)")
    }

    /// `--hex`'s message spoke of `'time'`, which is `--timestamps`' matter.
    static let hexMessage =
        "'--hex' applies only to text output; JSON records carry the exact bytes "
        + "(a '_hex' field whenever a string is not exactly its bytes)"
    static let timestampsMessage = "'--timestamps' applies only to text output; every JSON record carries its 'time'"

    /// The dashboard shows no hex and no timestamps: asking for them with `--live` is
    /// refused (checked before the terminal is, so a pipe shows it too).
    @Test(arguments: ["--hex", "--timestamps"])
    func eventLogOptionsWithLiveAreRefused(option: String) throws {
        let result = try Subprocess.run("tether", ["monitor", "--sim", "--live", option])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix(
                "Error: '\(option)' applies to the event log, and '--live' shows a dashboard instead"),
            "\(result.stderr)")
    }

    /// Without a terminal, connect sends each input line as a command; options that
    /// only a terminal session has are refused rather than ignored.
    @Test(arguments: [
        (["--mode", "raw"], "--mode raw"), (["--echo"], "--echo"), (["--map-cr"], "--map-cr"),
        (["--enter", "crlf"], "--enter"), (["--escape", "ctrl-a"], "--escape"),
        (["--mode", "raw", "--format", "json"], "--mode raw"),
    ])
    func terminalOptionsWithoutATerminalAreRefused(arguments: [String], option: String) throws {
        let result = try Subprocess.run("tether", ["connect", "--sim"] + arguments, stdin: "*IDN?\n")
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix(
                "Error: '\(option)' needs a terminal on standard input and output and text output; without them "
                    + "connect sends each input line as a command"), "\(result.stderr)")
    }

    /// `--mode line` is what a pipe gets anyway: each line is a command.
    @Test func lineModeThroughAPipeSendsEachLine() throws {
        let result = try Subprocess.run("tether", ["connect", "--sim", "--mode", "line"], stdin: "*IDN?\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("*IDN? → TETHER,ENV-1,SIM0001,1.0  ("), "\(result.stdout)")
    }

    /// A terminal that cannot redraw in place (`TERM=dumb`) gets no dashboard and no
    /// event log instead: `--live` is refused.
    @Test func liveOnADumbTerminalIsRefused() throws {
        let tether = Subprocess.productsDirectory.appendingPathComponent("tether").path
        let tmux = try Tmux("TERM=dumb \(tether) monitor --sim --live; echo EXIT=$?; sleep 60")
        let screen = try #require(
            tmux.waitForScreen { $0.contains("EXIT=64") }, "\(tmux.capture().joined(separator: "\n"))")
        #expect(
            screen.joined().contains("Error: '--live' cannot redraw the terminal 'dumb' in place"),
            "\(screen.joined(separator: "\n"))")
    }
}
