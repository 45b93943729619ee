// tether-bench: tether's Model measured through its public Swift API, for
// scripts/bench (see docs/PERFORMANCE.md). Talks to Benchmarks/c/bench-device.c.
//
//   tether-bench rtt PORT N      N × `query("MEAS:VOLT?")`, each reply checked, from a
//                                task that prefers the port loop (`Device.executor`)
//   tether-bench stream PORT MS  `send("STREAM MS")` (SCPI: a command gets no reply),
//                                every notification's sequence number checked
//
// Prints one JSON object, the same fields as the C clients (Benchmarks/c/bench-client.c).
import Glibc
import TetherModel

let expectedReply = Array("+1.23456789E+00".utf8)
let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]), count > 0 else {
    print("usage: tether-bench (rtt PORT N | stream PORT MS)")
    exit(64)
}

/// A duration in microseconds.
func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

/// N queries, one after the other, from a task that prefers the device's loop thread
/// (`Device.executor`: each reply's waiter runs in the loop turn that read it, as a C
/// client's loop does); prints the median and mean round trip.
func measureRoundTrips(port: String, count: Int) async throws {
    let device = try Device.open(port)
    await device.start()
    try await withTaskExecutorPreference(device.executor) {
        try await queryInTurn(device, count: count)
    }
}

/// `count` queries on `device`, each reply checked; prints the median and mean round trip.
func queryInTurn(_ device: Device, count: Int) async throws {
    var latencies: [Double] = []
    latencies.reserveCapacity(count)
    var good = 0
    let clock = ContinuousClock()
    for _ in 0..<count {
        let sent = clock.now
        let reply = try await device.query("MEAS:VOLT?", timeout: .seconds(5))
        latencies.append(microseconds(clock.now - sent))
        if reply.lines.count == 1, reply.lines[0].bytes == expectedReply { good += 1 }
    }
    await device.close()
    let mean = latencies.reduce(0, +) / Double(count)
    latencies.sort()
    print(
        "{\"ok\":\(good == count),\"n\":\(count),\"good\":\(good),"
            + "\"p50_us\":\(latencies[count / 2]),\"mean_us\":\(mean)}")
}

/// Asks for a stream of `milliseconds` and counts every notification up to `END n`.
func measureStream(port: String, milliseconds: Int) async throws {
    let device = try Device.open(port, dialect: SCPIDialect())
    let events = device.events(.lossless)
    await device.start()
    let clock = ContinuousClock()
    let began = clock.now
    device.send("STREAM \(milliseconds)", timeout: nil)
    // Ends the event stream if `END n` itself is lost.
    let watchdog = Task {
        try await Task.sleep(for: .milliseconds(milliseconds) + .seconds(30))
        await device.close()
    }
    var lines = 0
    var wrong = 0  // malformed, repeated or out of order
    var missed = 0
    var announced = -1
    var previous = -1
    for await event in events {
        switch event.kind {
        case .missed(let count): missed += count
        case .session(.notification(let line)):
            let bytes = line.bytes
            if bytes.starts(with: Array("END ".utf8)) {
                announced = Int(String(decoding: bytes.dropFirst(4), as: UTF8.self)) ?? -1
            } else {
                let sequence = bytes.count == 39 ? Int(String(decoding: bytes.prefix(10), as: UTF8.self)) ?? -1 : -1
                if sequence <= previous { wrong += 1 }
                previous = max(previous, sequence)
                lines += 1
            }
        default: break
        }
        if announced >= 0 { break }
    }
    let seconds = microseconds(clock.now - began) / 1e6
    watchdog.cancel()
    await device.close()
    print(
        "{\"ok\":\(announced == lines && wrong == 0 && missed == 0),\"lines\":\(lines),\"announced\":\(announced),"
            + "\"absent\":\(announced - lines),\"wrong\":\(wrong),\"missed\":\(missed),\"seconds\":\(seconds)}")
}

do {
    switch arguments[1] {
    case "rtt": try await measureRoundTrips(port: arguments[2], count: count)
    case "stream": try await measureStream(port: arguments[2], milliseconds: count)
    default:
        print("usage: tether-bench (rtt PORT N | stream PORT MS)")
        exit(64)
    }
} catch {
    print("{\"ok\":false,\"error\":\"\(error)\"}")
    exit(1)
}
