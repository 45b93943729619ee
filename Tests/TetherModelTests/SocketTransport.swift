import Glibc
import Synchronization
import TetherModel
import TetherSerial

/// A transport over one end of a Unix socket pair, for Device tests: the test plays
/// the device on the other end (``peer``), with blocking reads and writes.
final class SocketTransport: SerialTransport {
    let name = "socket"
    let descriptor: Int32
    /// The device's end, blocking; closed by ``closePeer()``.
    let peer: Int32
    /// Every write tether made that the socket took: when, and how many bytes.
    let transmits = Mutex<[(at: ContinuousClock.Instant, count: Int)]>([])
    /// The thread tether last read on (the port loop's).
    let readingThread = Mutex<pthread_t?>(nil)

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
            throw SerialError.io(path: "socket", function: "socketpair", errno: errno, message: "socketpair failed")
        }
        descriptor = ends[0]
        peer = ends[1]
        _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
    }

    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        readingThread.withLock { $0 = pthread_self() }
        let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
        guard count >= 0 else {
            if errno == ECONNRESET { return 0 }
            throw .io(path: name, function: "read", errno: errno, message: "read failed")
        }
        return count
    }

    func transmit(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int {
        let count = Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        guard count >= 0 else {
            if errno == EAGAIN { return 0 }
            if errno == EPIPE || errno == ECONNRESET { throw .disconnected(path: name) }
            throw .io(path: name, function: "send", errno: errno, message: "send failed")
        }
        if count > 0 { transmits.withLock { $0.append((.now, count)) } }
        return count
    }

    func close() { Glibc.close(descriptor) }

    /// The device sends `text`.
    func send(_ text: String) {
        send(Array(text.utf8))
    }

    /// The device sends `bytes`.
    func send(_ bytes: [UInt8]) {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes {
                Glibc.send(peer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return }
            written += count
        }
    }

    /// The device reads what tether wrote, waiting up to `timeout` ms for `count` bytes.
    /// Polls without blocking between short sleeps, so it never holds a thread of
    /// Swift's cooperative pool that the device under test may need.
    func received(count: Int, timeout: Int = 120_000) async -> String {
        String(decoding: await receivedBytes(count: count, timeout: timeout), as: UTF8.self)
    }

    /// The device reads the bytes tether wrote, as ``received(count:timeout:)`` does.
    func receivedBytes(count: Int, timeout: Int = 120_000) async -> [UInt8] {
        var bytes: [UInt8] = []
        let end = ContinuousClock.now + .milliseconds(timeout)
        while bytes.count < count, ContinuousClock.now < end {
            var entry = pollfd(fd: peer, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 0) > 0 else {
                try? await Task.sleep(for: .milliseconds(2))
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let got = Glibc.read(peer, &chunk, chunk.count)
            guard got > 0 else { break }
            bytes += chunk[..<got]
        }
        return bytes
    }

    /// The device goes away.
    func closePeer() { Glibc.close(peer) }
}
