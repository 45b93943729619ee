import Foundation
import Glibc
import Synchronization
import Testing

@testable import TetherConsole

/// ``SessionShare`` on a Unix socket in a temporary folder, with clients made here.
@Suite struct SessionShareTests {
    /// A client connected to `path`.
    static func connectClient(to path: String) throws -> Int32 {
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(connected == 0, "connect: \(String(cString: strerror(errno)))")
        return client
    }

    /// Reads from `descriptor` until `count` bytes came or it ends (or `timeout` s pass).
    static func read(_ descriptor: Int32, count: Int, timeout: Double = 10) -> (bytes: [UInt8], ended: Bool) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(timeout)
        while bytes.count < count && Date() < deadline {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            let got = Glibc.read(descriptor, &buffer, buffer.count)
            if got <= 0 { return (bytes, true) }
            bytes += buffer[..<got]
        }
        return (bytes, false)
    }

    /// What a client writes reaches `send`; what is delivered reaches the client; the
    /// socket's file is gone once stopped.
    @Test func bytesGoBothWaysAndTheFileIsRemoved() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("s.sock")
        let sent = Mutex<[UInt8]>([])
        let share = try SessionShare(socketPath: path, pty: false) { bytes in sent.withLock { $0 += bytes } }
        let client = try Self.connectClient(to: path)
        defer { close(client) }
        _ = Glibc.write(client, "AT\r", 3)
        #expect(await waitUntil { sent.withLock { $0 } == Array("AT\r".utf8) })
        // The share sees the client only once its thread accepted it.
        #expect(
            await waitUntil {
                share.deliver([0x4F]); return Self.read(client, count: 1, timeout: 0.1).bytes.first == 0x4F
            })
        share.stop()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// A client that reads nothing is dropped once more than 1 MiB waits for it; the
    /// other client gets every byte.
    @Test func aClientFarBehindIsDropped() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("s.sock")
        let share = try SessionShare(socketPath: path, pty: false) { _ in }
        defer { share.stop() }
        let stuck = try Self.connectClient(to: path)
        let reader = try Self.connectClient(to: path)
        defer { close(stuck); close(reader) }
        #expect(
            await waitUntil {
                share.deliver([0x2E]); return Self.read(reader, count: 1, timeout: 0.1).bytes.first == 0x2E
            })
        let chunk = [UInt8](repeating: 0x41, count: 65536)
        var received = 0
        for _ in 0..<40 {
            share.deliver(chunk)
            received += Self.read(reader, count: chunk.count).bytes.count
        }
        #expect(received >= 40 * chunk.count)
        #expect(Self.read(stuck, count: Int.max).ended, "the stuck client was not dropped")
    }
}
