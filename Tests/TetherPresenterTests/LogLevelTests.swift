import Foundation
import Testing

@testable import TetherModel
@testable import TetherPresenter

/// Each log format's levels, as the firmware writes them, and the view state's count
/// of them (docs/FIRMWARE.md, "Log levels").
@Suite struct LogLevelTests {
    @Test(arguments: [
        // Zephyr's deferred log, with and without its timestamp.
        ("[00:00:00.012,000] <err> os: ***** USAGE FAULT *****", LogLevel.error),
        ("[00:00:48.453,000] <wrn> net_if: iface 1 is down", .warning),
        ("<inf> main: sensor ready", .info), ("[00:00:01.000,000] <dbg> spi: xfer 4 bytes", .debug),
        // Zephyr's minimal log and fatal error.
        ("E: ***** MPU FAULT *****", .error), ("W: low stack", .warning),
        // ESP-IDF: uptime in ms, or the wall clock.
        ("E (1234) wifi: connect failed", .error), ("W (312) boot: PRO CPU has been reset", .warning),
        ("I (27) boot: ESP-IDF v5.1 2nd stage bootloader", .info), ("D (12:00:01.250) tag: x", .debug),
        ("V (5) tag: verbose", .debug),
        // Linux printk levels and syslog priorities (facility 1 × 8 + severity).
        ("<3>usb 1-1: device descriptor read/64, error -71", .error), ("<4>warning", .warning),
        ("<6>Booting Linux on physical CPU 0x0", .info), ("<7>debug line", .debug), ("<11>app: failed", .error),
        ("<14>app: started", .info),
        // Words.
        ("[ERROR] sensor timeout", .error), ("[warn] retrying", .warning), ("WARNING: battery low", .warning),
        ("INFO: ready", .info), ("[00:01:02] [DEBUG] tick", .debug),
    ])
    func eachFormatsLevelIsRecognised(line: String, level: LogLevel) {
        #expect(LogLevel.of(Array(line.utf8)) == level)
    }

    @Test(arguments: [
        "Guru Meditation Error: Core  0 panic'ed", "rst:0x1 (POWERON_RESET),boot:0x13", "ets Jun  8 2016 00:22:57",
        "<192>too high", "<abc> not a level", "Error rate 0%", "I(27) no space", "Eric: hello", "uart:~$ ", "",
        "Information: not a level word",
    ])
    func linesWithoutALevelHaveNone(line: String) {
        #expect(LogLevel.of(Array(line.utf8)) == nil)
    }

    @Test func levelsOrderFromTheMostSevere() {
        #expect(LogLevel.error < .warning && LogLevel.warning < .info && LogLevel.info < .debug)
        #expect(LogLevel(naming: "warn") == .warning)
        #expect(LogLevel(naming: "ERR") == .error)
        #expect(LogLevel(naming: "loud") == nil)
    }

    @Test func thePresenterSetsEachNotificationsLevelAndCountsThem() throws {
        var presenter = Presenter(port: "/dev/ttyUSB0")
        var levels: [LogLevel?] = []
        for line in ["E (1) a: x", "W (2) a: y", "W (3) a: z", "plain", "<dbg> d"] {
            for record in presenter.handle(
                DeviceEvent(time: Date(timeIntervalSince1970: 0), kind: .session(.notification(Line(line)))))
            {
                if case .notification(let viewLine, _) = record.event { levels.append(viewLine.level) }
            }
        }
        #expect(levels == [.error, .warning, .warning, nil, .debug])
        #expect(presenter.state.counts.levels == [.error: 1, .warning: 2, .debug: 1])
        #expect(presenter.state.counts.notifications == 5)
    }
}
