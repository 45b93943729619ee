import Foundation
import Glibc
import Synchronization
import Testing

@testable import TetherSimulator

/// The simulator through a real pty, as a client sees it.
@Suite struct SimulatorTests {
    @Test func answersTheEnvironmentalControllersCommands() throws {
        let simulator = try Simulator()
        let client = try PtyClient(path: simulator.devicePath)
        #expect(simulator.devicePath.hasPrefix("/dev/pts/"))
        client.send("*IDN?\r\n")
        #expect(client.readLine() == "TETHER,ENV-1,SIM0001,1.0")
        client.send("SETP 25.5\n")
        #expect(client.readLine() == "OK")
        client.send("SETP 99\r")
        #expect(client.readLine() == #"ERR -222,"Data out of range""#)
        client.send("SETP?\n")
        #expect(client.readLine() == "25.5")
        #expect(simulator.received == Array("*IDN?\r\nSETP 25.5\nSETP 99\rSETP?\n".utf8))
    }

    @Test func sendsReadingsAtTheNewRate() throws {
        let simulator = try Simulator()
        let client = try PtyClient(path: simulator.devicePath)
        let sent = ContinuousClock.now
        client.send("RATE 100\n")
        #expect(client.readLine() == "OK")
        var readings = 0
        while readings < 5, let line = client.readLine() {
            #expect(line.hasPrefix("!READING temp="))
            readings += 1
        }
        let elapsed = ContinuousClock.now - sent
        #expect(readings == 5)
        // At 1000 ms (the default) five readings would take 5 s.
        #expect(elapsed >= .milliseconds(500))
        #expect(elapsed < .seconds(4))
    }

    @Test func alarmTestRepliesOKThenAnAlarm() throws {
        let simulator = try Simulator()
        let client = try PtyClient(path: simulator.devicePath)
        client.send("ALARM:TEST\r")
        #expect(client.readLine() == "OK")
        let alarm = try #require(client.readLine())
        #expect(alarm.wholeMatch(of: #/!ALARM test temp=\d+\.\d\d limit=30\.0/#) != nil, "\(alarm)")
    }

    @Test func writesNothingUntilAClientOpensThePort() throws {
        let probe = EagerProbe()
        let simulator = try Simulator(device: probe)
        usleep(300_000)
        #expect(probe.wakeUps.withLock { $0 } == 0)
        #expect(!simulator.isClientConnected)

        let client = try PtyClient(path: simulator.devicePath)
        #expect(eventually { simulator.isClientConnected })
        #expect(client.readLine() == "tick")
        #expect(probe.wakeUps.withLock { $0 } >= 1)
    }

    @Test func sendsNoReadingBeforeTheClientHasBeenConnectedForOneInterval() throws {
        let simulator = try Simulator()
        usleep(1_500_000)  // longer than RATE: a reading now would be one written with no client
        let client = try PtyClient(path: simulator.devicePath)
        #expect(client.collect(for: .milliseconds(600)).isEmpty)
        #expect(client.readLine()?.hasPrefix("!READING ") == true)
    }

    @Test func noticesTheClientClosingAndTheNextOneOpening() throws {
        let simulator = try Simulator()
        var client: PtyClient? = try PtyClient(path: simulator.devicePath)
        #expect(eventually { simulator.isClientConnected })
        client = nil
        #expect(eventually { !simulator.isClientConnected })
        client = try PtyClient(path: simulator.devicePath)
        client?.send("*IDN?\n")
        #expect(client?.readLine() == "TETHER,ENV-1,SIM0001,1.0")
    }

    @Test func reportsTheClientsTerminalSettings() throws {
        let simulator = try Simulator()
        let cooked = try #require(simulator.clientAttributes)
        #expect(cooked.c_lflag & tcflag_t(ICANON) != 0)
        let client = try PtyClient(path: simulator.devicePath)
        let raw = try #require(simulator.clientAttributes)
        #expect(raw.c_lflag & tcflag_t(ICANON | ECHO) == 0)
        _ = client
    }

    @Test func stopHangsUpOnTheClientAndRemovesTheLink() throws {
        let link = temporaryPath("ttyENV")
        let simulator = try Simulator(link: link)
        #expect(simulator.linkPath == link)
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: link) == simulator.devicePath)
        let client = try PtyClient(path: link)
        #expect(eventually { simulator.isClientConnected })

        simulator.stop()
        #expect(!simulator.isRunning)
        #expect(client.readUntilHangUp(timeout: .seconds(2)) == [])
        #expect(!FileManager.default.fileExists(atPath: link))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
        simulator.stop()
    }

    @Test func replacesAStaleLink() throws {
        let link = temporaryPath("ttyStale")
        try FileManager.default.createSymbolicLink(
            atPath: link, withDestinationPath: "/dev/pts/999999")
        let simulator = try Simulator(link: link)
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: link) == simulator.devicePath)
        simulator.stop()
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
    }

    @Test func refusesToReplaceAFileThatIsNotALink() throws {
        let path = temporaryPath("notALink")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try Simulator(link: path)
        } throws: { error in
            guard let error = error as? SimulatorError else { return false }
            return error.code == .linkPathOccupied && error.description.contains(path)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    }

    /// A second simulator took over a live one's link and deleted it when it stopped,
    /// leaving the first unreachable.
    @Test func refusesTheLinkOfALiveSimulator() throws {
        let link = temporaryPath("ttyShared")
        let first = try Simulator(link: link)
        #expect {
            try Simulator(link: link)
        } throws: { error in
            guard let error = error as? SimulatorError else { return false }
            return error.code == .linkPathOccupied && error.description.contains("it points to \(first.devicePath)")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == first.devicePath)
        first.stop()
        let second = try Simulator(link: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == second.devicePath)
        second.stop()
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil)
    }
}

/// A device that wants to be woken from the moment it is created and counts the
/// wake-ups it gets.
private final class EagerProbe: SimulatedDevice {
    let wakeUps = Mutex(0)
    private let created = ContinuousClock.now
    private let lastWake = Mutex<ContinuousClock.Instant?>(nil)

    var nextWakeUp: ContinuousClock.Instant? {
        lastWake.withLock { last in last.map { $0 + .seconds(60) } ?? created }
    }

    func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [DeviceOutput] { [] }

    func wakeUp(at now: ContinuousClock.Instant) -> [DeviceOutput] {
        wakeUps.withLock { $0 += 1 }
        lastWake.withLock { $0 = now }
        return [.send("tick\r\n", after: .milliseconds(100))]
    }
}
