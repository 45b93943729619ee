import Foundation
import Glibc
import Testing

@testable import TetherSerial

/// TCPPort against a server on loopback: bytes unchanged both ways, the server
/// closing is the end of the stream, writing after that is a disconnect.
struct TCPPortTests {
    @Test func bytesPassUnchangedAndTheServerClosingIsTheEnd() throws {
        let server = try LoopbackServer()
        let address = "tcp://127.0.0.1:\(server.port)"
        let connecting = Thread { server.accept() }
        connecting.start()
        let port = try TCPPort.connect(to: "127.0.0.1", port: server.port, name: address)
        defer { port.close() }
        while !connecting.isFinished { usleep(1000) }

        let bytes: [UInt8] = [0x00, 0x0D, 0x0A, 0x11, 0x13, 0xFF, 0x41]
        #expect(try bytes.withBytes { (all) throws(SerialError) in try port.transmit(all) } == bytes.count)
        #expect(server.read(bytes.count) == bytes)

        server.write(bytes)
        var entry = pollfd(fd: port.descriptor, events: Int16(POLLIN), revents: 0)
        var buffer = [UInt8](repeating: 0, count: 64)
        var received: [UInt8] = []
        while received.count < bytes.count, poll(&entry, 1, 10_000) == 1 {
            let count = try buffer.withMutableBytes { (all) throws(SerialError) in try port.receive(into: all) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        #expect(received == bytes)

        server.closeConnection()
        #expect(poll(&entry, 1, 10_000) == 1)
        #expect(try buffer.withMutableBytes { (all) throws(SerialError) in try port.receive(into: all) } == 0)
        #expect(throws: SerialError.disconnected(path: address)) {
            // The first write after a close may still be accepted; the next one fails.
            for _ in 0..<100 {
                _ = try [0x41].withBytes { (all) throws(SerialError) in try port.transmit(all) }
                usleep(10_000)
            }
        }
    }

    /// A link cut without a word is noticed (docs/HARDWARE.md): the connected socket
    /// has keepalive after 5 s idle, probes every second, 5 of them, and a 10 000 ms
    /// `TCP_USER_TIMEOUT`, besides `TCP_NODELAY`.
    @Test func theSocketNoticesASilentCutWithinTenSeconds() throws {
        let server = try LoopbackServer()
        let port = try TCPPort.connect(to: "127.0.0.1", port: server.port, name: "loopback")
        defer { port.close() }
        server.accept()
        func option(_ level: Int32, _ name: Int32) -> Int32 {
            var value: Int32 = -1
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(port.descriptor, level, name, &value, &length) == 0 ? value : -1
        }
        let tcp = Int32(IPPROTO_TCP)
        #expect(option(SOL_SOCKET, SO_KEEPALIVE) == 1)
        #expect(option(tcp, TCP_KEEPIDLE) == 5)
        #expect(option(tcp, TCP_KEEPINTVL) == 1)
        #expect(option(tcp, TCP_KEEPCNT) == 5)
        #expect(option(tcp, TCP_USER_TIMEOUT) == 10_000)
        #expect(option(tcp, TCP_NODELAY) == 1)
    }

    @Test func nothingListeningIsARefusedConnect() throws {
        let server = try LoopbackServer()
        let port = server.port
        _ = consume server
        #expect {
            try TCPPort.connect(to: "127.0.0.1", port: port, name: "tcp://127.0.0.1:\(port)")
        } throws: { error in
            guard case .io(let path, "connect", ECONNREFUSED, "Connection refused") = error as? SerialError else {
                return false
            }
            return path == "tcp://127.0.0.1:\(port)"
        }
    }

    @Test func anUnknownHostIsNamed() throws {
        #expect {
            try TCPPort.connect(to: "no-such-host.invalid", port: 7000, name: "tcp://no-such-host.invalid:7000")
        } throws: { error in
            guard case .io(_, "getaddrinfo", _, let message) = error as? SerialError else { return false }
            return message.hasPrefix("cannot resolve 'no-such-host.invalid'")
        }
    }

    /// The server of these tests closes its connection once: after `closeConnection`,
    /// its `deinit` must not close the same descriptor number again, which a parallel
    /// test may have been given meanwhile (a pty or port that then failed with EBADF or
    /// read another test's bytes).
    @Test func theTestServerClosesItsConnectionOnce() throws {
        var server: LoopbackServer? = try LoopbackServer()
        let port = try TCPPort.connect(to: "127.0.0.1", port: server!.port, name: "loopback")
        defer { port.close() }
        server?.accept()
        server?.closeConnection()
        var reused: [Int32] = [-1, -1]
        #expect(pipe(&reused) == 0)
        defer { reused.forEach { close($0) } }
        server = nil
        #expect(fcntl(reused[0], F_GETFD) != -1 && fcntl(reused[1], F_GETFD) != -1)
    }
}
