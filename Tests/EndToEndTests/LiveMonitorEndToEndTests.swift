import Foundation
import Testing

/// `tether monitor --live`: the dashboard on a terminal (in tmux, as a person sees
/// it) and the `state` records for programs.
@Suite struct LiveMonitorEndToEndTests {
    private static var tether: String { Subprocess.productsDirectory.appendingPathComponent("tether").path }

    private static func row(_ name: String, in screen: [String]) -> String? {
        screen.first { $0.hasPrefix(name + " ") }
    }

    private static func notifications(in screen: [String]) -> Int? {
        screen.lazy.compactMap { line in
            line.firstRange(of: "notifications ").flatMap { range in
                Int(line[range.upperBound...].prefix { $0.isNumber })
            }
        }.first
    }

    /// A reading row: name, value, unit, min, max, mean, count, then a sparkline.
    private static func isReadingRow(_ row: String?, unit: String) -> Bool {
        guard let row else { return false }
        let cells = row.split(separator: " ")
        return cells.count >= 9 && cells[2] == unit && Double(cells[1]) != nil && Int(cells[6]) != nil
            && cells[7].allSatisfy { "▁▂▃▄▅▆▇█".contains($0) }
    }

    @Test func dashboardShowsReadingsWithSparklinesAndUpdates() throws {
        let tmux = try Tmux("\(Self.tether) monitor --sim --live; echo EXIT=$?; sleep 60")
        let first = try #require(
            tmux.waitForScreen {
                Self.isReadingRow(Self.row("temp", in: $0), unit: "°C") && Self.row("hum", in: $0) != nil
            },
            "no temperature row on: \(tmux.capture().joined(separator: "\n"))")
        #expect(first[0].hasPrefix("tether · sim:env (/dev/pts/"))
        #expect(first.contains { $0.contains("TETHER ENV-1 · serial SIM0001 · firmware 1.0 (from the profile)") })
        #expect(first.contains { $0.contains("connected · 115200 8N1 · for ") })
        #expect(Self.isReadingRow(Self.row("hum", in: first), unit: "%RH"))
        let count = try #require(Self.notifications(in: first))
        usleep(1_000_000)
        // A second later; on a loaded machine, wait on until a new notification is shown.
        let second = try #require(
            tmux.waitForScreen { (Self.notifications(in: $0) ?? 0) > count && Self.row("temp", in: $0) != nil })
        #expect(Self.row("temp", in: first) != Self.row("temp", in: second))
        #expect(Self.row("hum", in: first) != Self.row("hum", in: second))
        #expect(Self.isReadingRow(Self.row("temp", in: second), unit: "°C"))

        tmux.send("C-c")
        let after = try #require(tmux.waitForScreen { $0.contains("EXIT=130") }, "monitor did not end on Ctrl-C")
        #expect(!after.contains { $0.hasPrefix("temp ") }, "the dashboard was left on the screen")
        #expect(tmux.modes == (false, true))
    }

    /// Ended by a signal, the dashboard puts the screen back first:
    /// SIGTERM and SIGHUP end the session cleanly; a crash (SIGSEGV, SIGABRT) or a signal
    /// tether does not handle (SIGUSR1, SIGALRM, SIGPIPE) then end it the default way. (Swift's crash
    /// reporter is off here: it reports a SIGSEGV sent by `kill` and lets the process go
    /// on, which a real crash does not.) SIGQUIT is ignored in a non-interactive shell's
    /// background job, and so stays: ``ctrlBackslashPutsTheScreenBack()`` tests it.
    @Test(arguments: [
        (SIGTERM, 143), (SIGHUP, 129), (SIGSEGV, 139), (SIGABRT, 134), (SIGUSR1, 138), (SIGALRM, 142),
        (SIGPIPE, 141),
    ])
    func signalPutsTheScreenBack(signal: Int32, expected: Int) throws {
        let folder = try TemporaryFolder()
        let pidFile = folder.path("pid")
        let tmux = try Tmux(
            "\(Self.tether) monitor --sim --live & echo $! > \(pidFile); wait $!; echo EXIT=$?; sleep 60",
            environment: ["SWIFT_BACKTRACE": "enable=no"])
        _ = try #require(tmux.waitForScreen { Self.row("temp", in: $0) != nil })
        #expect(tmux.modes == (true, false))
        let pid = try #require(
            pid_t(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, signal)
        let after = try #require(tmux.waitForScreen { $0.contains("EXIT=\(expected)") }, "\(tmux.capture())")
        #expect(!after.contains { $0.hasPrefix("temp ") })
        #expect(tmux.modes == (false, true))
    }

    /// Ctrl-\\ (SIGQUIT) ends the session as Ctrl-C does, with 131, the screen put back.
    @Test func ctrlBackslashPutsTheScreenBack() throws {
        let tmux = try Tmux("bash --norc --noprofile -i")
        tmux.send("PS1='$ '; \(Self.tether) monitor --sim --live; echo EXIT=$?", "Enter")
        _ = try #require(tmux.waitForScreen { Self.row("temp", in: $0) != nil })
        tmux.send("C-\\")
        let after = try #require(tmux.waitForScreen { $0.contains("EXIT=131") }, "\(tmux.capture())")
        #expect(!after.contains { $0.hasPrefix("temp ") })
        #expect(!after.contains { $0.contains("crashed") })
        #expect(tmux.modes == (false, true))
    }

    /// Ctrl-Z puts the screen back before tether stops; `fg` draws the dashboard again.
    @Test func suspendAndResume() throws {
        let tmux = try Tmux("bash --norc --noprofile -i")
        tmux.send("PS1='$ '; \(Self.tether) monitor --sim --live", "Enter")
        _ = try #require(tmux.waitForScreen { Self.row("temp", in: $0) != nil })
        tmux.send("C-z")
        _ = try #require(tmux.waitForScreen { $0.contains { $0.contains("Stopped") } }, "\(tmux.capture())")
        #expect(tmux.modes == (false, true))
        tmux.send("fg", "Enter")
        _ = try #require(tmux.waitForScreen { Self.row("temp", in: $0) != nil }, "\(tmux.capture())")
        #expect(tmux.modes == (true, false))
        tmux.send("C-c")
        _ = try #require(tmux.waitForScreen { !$0.contains { $0.hasPrefix("temp ") } })
        #expect(tmux.modes == (false, true))
    }

    /// With --no-reconnect, a device that goes away ends the dashboard with exit 74; the
    /// screen is put back and the reason is on standard error.
    @Test func deviceGoneForGoodRestoresTheScreenAndSaysWhy() throws {
        let folder = try TemporaryFolder()
        let link = folder.path("device")
        let errors = folder.path("stderr")
        let simulator = try Subprocess("tether-sim", ["--link", link])
        #expect(simulator.waitForOutput(containing: link))
        let tmux = try Tmux("\(Self.tether) monitor \(link) --live --no-reconnect 2>\(errors); echo EXIT=$?; sleep 60")
        _ = try #require(tmux.waitForScreen { Self.row("temp", in: $0) != nil })
        simulator.send(SIGTERM)
        _ = simulator.wait()
        let after = try #require(tmux.waitForScreen { $0.contains("EXIT=74") }, "\(tmux.capture())")
        #expect(!after.contains { $0.hasPrefix("temp ") })
        let message = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(message.contains("disconnected: \(link): "), "\(message)")
    }

    @Test func dashboardFollowsTheTerminalSize() throws {
        let tmux = try Tmux("\(Self.tether) monitor --sim --live", columns: 100, rows: 30)
        _ = try #require(tmux.waitForScreen { Self.row("temp", in: $0) != nil })
        tmux.resize(columns: 50, rows: 14)
        let small = try #require(
            tmux.waitForScreen { screen in
                screen.count == 14 && screen[0].contains(":") && screen.allSatisfy { $0.count <= 50 }
            })
        #expect(small.contains { $0.hasPrefix("temp ") })
    }

    /// Colour on a terminal, none with NO_COLOR (no-color.org); headings stay bold.
    @Test(arguments: [false, true])
    func colourUnlessNoColor(noColor: Bool) throws {
        let tmux = try Tmux("\(Self.tether) monitor --sim --live", environment: noColor ? ["NO_COLOR": "1"] : [:])
        _ = try #require(tmux.waitForScreen { Self.row("temp", in: $0) != nil })
        let screen = tmux.capture(escapes: true).joined(separator: "\n")
        let colours = (30...37).filter { screen.contains("\u{1B}[\($0)m") }
        #expect(colours.isEmpty == noColor, "\(screen)")
        #expect(screen.contains("\u{1B}[1mREADING"))
    }

    /// Text `--live` into a pipe fell back to the event log: a dashboard cannot be
    /// drawn there, so it is refused before the port opens.
    @Test func notATerminalIsRefused() throws {
        let result = try Subprocess.run("tether", ["monitor", "--sim", "--live", "--count", "2"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix(
                "Error: '--live' draws a dashboard and standard output is not a terminal; give '--format json' "
                    + "for state records, or leave out '--live' for the event log"), "\(result.stderr)")
    }

    @Test func stateRecordsFollowDocsJSON() throws {
        let result = try Subprocess.run("tether", ["monitor", "--sim", "--live", "--format", "json", "--count", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try JSONLines.parse(result.stdout)
        #expect(!records.isEmpty)
        let schema = try StateRecordSchema()
        for record in records {
            #expect(schema.problems(in: record).isEmpty, "\(schema.problems(in: record))")
        }
        let last = try #require(records.last)
        let readings = try #require(last["readings"] as? [[String: Any]])
        #expect(readings.map { $0["name"] as? String } == ["temp", "hum"])
        #expect(readings.first?["count"] as? Int == 3)
        #expect((readings.first?["history"] as? [Double])?.count == 3)
    }
}
