import CPtyCompat
import Foundation
import Glibc
import Synchronization
import TetherLibC

/// A real pseudo-terminal for tests: the test plays the device on the master side
/// and opens the slave (`slavePath`, `/dev/pts/N`) through ``SerialPort``.
final class PseudoTerminal: Sendable {
    let master: Int32
    let slavePath: String
    private let isClosed = Mutex(false)

    /// Linux's TIOCSPTLCK (`_IOW('T', 0x31, int)`) and TIOCGPTN (`_IOR('T', 0x30,
    /// unsigned int)`): what `unlockpt` and `ptsname` do, which Swift's Glibc lacks.
    private static let unlockRequest: UInt = 0x4004_5431
    private static let numberRequest: UInt = 0x8004_5430

    /// Opens a new pty master (`/dev/ptmx`) and unlocks its slave.
    init() throws {
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw TestFailure("open /dev/ptmx: errno \(errno)") }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, Self.unlockRequest, &unlock) == 0, ioctl(master, Self.numberRequest, &number) == 0 else {
            Glibc.close(master)
            throw TestFailure("pty setup: errno \(errno)")
        }
        self.master = master
        self.slavePath = "/dev/pts/\(number)"
    }

    deinit { closeMaster() }

    /// Closes the master: the slave side hangs up.
    func closeMaster() {
        isClosed.withLock { isClosed in
            if !isClosed { Glibc.close(master) }
            isClosed = true
        }
    }

    /// Writes `bytes` to the master (the device sends them).
    func send(_ bytes: [UInt8]) throws {
        let count = Glibc.write(master, bytes, bytes.count)
        guard count == bytes.count else {
            throw TestFailure("master write: \(count) of \(bytes.count), errno \(errno)")
        }
    }

    /// Reads from the master until `count` bytes arrived or `timeout` ms passed.
    func receive(count: Int, timeout: Int = 5000) -> [UInt8] {
        var received: [UInt8] = []
        let end = ContinuousClock.now + .milliseconds(timeout)
        while received.count < count, ContinuousClock.now < end {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: count - received.count)
            let got = Glibc.read(master, &chunk, chunk.count)
            guard got > 0 else { break }
            received += chunk[..<got]
        }
        return received
    }

    /// The slave's termios, read on the master side (they share it).
    func settings() -> termios {
        var settings = termios()
        _ = tcgetattr(master, &settings)
        return settings
    }

    /// The slave's output baud rate (baud), read on the master with TCGETS2.
    func outputBaudRate() -> UInt32 {
        var input: UInt32 = 0
        var output: UInt32 = 0
        _ = tether_tty_get_speeds(master, &input, &output)
        return output
    }
}

/// A failure in the test harness itself.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs blocking work on its own thread, never on Swift's cooperative pool.
func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// CPU time (user + system) used so far by the calling thread, in seconds.
func threadCPUSeconds() -> Double {
    var usage = rusage()
    let thread = __rusage_who_t(1)  // RUSAGE_THREAD (Linux), not exported to Swift
    _ = getrusage(thread, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Does `flags` have any of `bits` set?
func isSet(_ flags: tcflag_t, _ bits: Int32) -> Bool { flags & tcflag_t(bits) != 0 }
