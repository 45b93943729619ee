import Synchronization
import Testing
import TetherSerial

@testable import TetherModel

/// The looks at the modem status inputs, with an injected source: a pty cannot show a
/// ring that starts and ends between two looks, nor a driver's change counts
/// (`TIOCGICOUNT` fails on it).
@Suite struct ModemLineWatchTests {
    final class Source: ModemStatusSource {
        let status: Mutex<ModemStatus>
        init(_ status: ModemStatus) { self.status = Mutex(status) }
        func modemStatus() throws(SerialError) -> ModemStatus { status.withLock { $0 } }
    }

    let start = ContinuousClock.now
    let idle = ModemStatus(lines: [.dtr, .rts, .cts, .dsr, .dcd], changeCounts: [0, 0, 0, 0])

    @Test func theFirstLookIsTheBaselineThenChangesAreEvents() {
        var watch = ModemLineWatch()
        let source = Source(idle)
        #expect(watch.look(at: source, now: start).isEmpty)
        source.status.withLock { $0 = ModemStatus(lines: [.dtr, .rts, .cts, .dsr], changeCounts: [0, 0, 1, 0]) }
        #expect(watch.look(at: source, now: start + .milliseconds(50)).isEmpty, "not before the interval")
        #expect(watch.timeout(atMost: 1000, now: start + .milliseconds(50)) == 50)
        #expect(watch.look(at: source, now: start + .milliseconds(100)) == [.modemLines([.cts, .dsr], changed: .dcd)])
        #expect(watch.look(at: source, now: start + .milliseconds(200)).isEmpty, "no change, no event")
    }

    /// A ring between two looks: RI reads off both times, its count moved.
    @Test func aRingBetweenTwoLooksIsCounted() {
        var watch = ModemLineWatch()
        let source = Source(idle)
        _ = watch.look(at: source, now: start)
        source.status.withLock { $0.changeCounts = [0, 0, 0, 2] }
        #expect(
            watch.look(at: source, now: start + .milliseconds(100)) == [.modemLines([.cts, .dsr, .dcd], changed: .ri)])
    }

    /// Without counts (a pty) only a difference between two looks is a change.
    @Test func withoutCountsOnlyWhatReadsDifferently() {
        var watch = ModemLineWatch()
        let source = Source(ModemStatus(lines: [.cts, .dsr, .dcd]))
        _ = watch.look(at: source, now: start)
        source.status.withLock { $0 = ModemStatus(lines: [.cts, .dcd]) }
        #expect(watch.look(at: source, now: start + .milliseconds(100)) == [.modemLines([.cts, .dcd], changed: .dsr)])
    }

    /// Characters lost between two looks (the driver's overrun count moved): an overrun.
    @Test func anOverrunTheDriverCountedIsAnEvent() {
        var watch = ModemLineWatch()
        let source = Source(ModemStatus(lines: [.cts], changeCounts: [0, 0, 0, 0], overruns: 3))
        _ = watch.look(at: source, now: start)
        source.status.withLock { $0.overruns = 5 }
        #expect(watch.look(at: source, now: start + .milliseconds(100)) == [.overrun])
    }
}
