import Synchronization
import TetherModel
import TetherSerial
import TetherSimulator
import TetherTransfer

// The code of the DocC articles (Sources/*/*.docc), compiled here so that it cannot
// go stale: scripts/docs fails when an article's Swift block is not in this package's
// sources. main.swift runs each function against the simulator.

/// The "Getting started" article: open a simulator, query it, watch its
/// notifications, close.
func gettingStarted() async throws {
    let simulator = try Simulator()  // the built-in `env` profile on a new pty
    defer { simulator.stop() }

    let dialect = LineDialect(notificationPattern: try LinePattern("^!"))
    let device = try Device.open(simulator.devicePath, dialect: dialect)
    let events = device.events(.lossless)  // attach before start() to see `connected`
    await device.start()

    let watcher = Task {
        for await event in events {
            if case .session(.notification(let line)) = event.kind {
                print("notification:", line.text)
            }
        }
    }

    let reply = try await device.query("*IDN?", timeout: .seconds(2))
    print(reply.lines.map(\.text), reply.isError)
    _ = try await device.query("RATE 100", timeout: .seconds(2))  // a reading every 100 ms
    try await Task.sleep(for: .milliseconds(350))

    await device.close()  // the events sequence ends
    await watcher.value
}

/// The "Dialects and reply matching" article: an instrument whose error queue is
/// read after every command (not run: it needs the instrument).
func openInstrument() throws(SerialError) -> Device {
    let scpi = try Device.open("/dev/ttyUSB0", dialect: SCPIDialect(checksErrors: true))
    return scpi
}

/// The "Cancellation and timeouts" article: what a query that gets no reply throws.
func queryWithTimeout(_ device: Device) async {
    do {
        let reply = try await device.query("MEAS?", timeout: .milliseconds(500))
        print(reply.lines.map(\.text))
    } catch .timedOut(let timeout) {
        print("no reply within \(timeout)")
    } catch {
        print("failed: \(error)")
    }

    let query = Task { try await device.query("MEAS?", timeout: nil) }
    query.cancel()  // the query throws RequestFailure.cancelled at once
    print(await query.result)
}

/// The "Lossless and lossy observers" article: an optional observer that may miss events.
func watchStatus(_ device: Device) async {
    let status = device.events(.lossy)  // the device never waits for this observer
    for await event in status {
        if case .missed(let count) = event.kind {
            print("missed \(count) events")
        }
    }
}

/// The "Transfers" article: a YMODEM upload to a simulated receiver.
func transferFile() async throws {
    let receiver = TransferPeer(TransferReceiver(.ymodem))
    let simulator = try Simulator(device: receiver)
    defer { simulator.stop() }
    let device = try Device.open(simulator.devicePath)

    let file = TransferFile(name: "hello.txt", data: Array("hello\n".utf8))
    let outcome = await device.transfer(TransferSender(.ymodem, files: [file]))
    print(outcome == .completed(files: [file]), receiver.received.map(\.data) == [file.data])
    await device.close()
}

/// The "Writing a simulated device" article: a thermometer that answers `TEMP?`.
final class Thermometer: SimulatedDevice {
    private let input = Mutex<[UInt8]>([])

    func clientDidConnect(at now: ContinuousClock.Instant) -> [DeviceOutput] {
        [.send("!HELLO\r\n")]
    }

    func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [DeviceOutput] {
        input.withLock { input in
            input += bytes
            var outputs: [DeviceOutput] = []
            while let end = input.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: input[..<end], as: UTF8.self)
                input.removeSubrange(...end)
                outputs.append(.send(line == "TEMP?" ? "21.5\r\n" : "ERR unknown\r\n", after: .milliseconds(5)))
            }
            return outputs
        }
    }
}

/// The "Writing a simulated device" article: the thermometer on a pty.
func queryThermometer() async throws {
    let simulator = try Simulator(device: Thermometer())
    defer { simulator.stop() }
    let device = try Device.open(simulator.devicePath)
    await device.start()
    print(try await device.query("TEMP?", timeout: .seconds(2)).lines.map(\.text))
    await device.close()
}
