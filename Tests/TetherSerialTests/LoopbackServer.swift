import Foundation
import Glibc

/// A TCP server on 127.0.0.1 that accepts one connection, which the test drives with
/// blocking reads and writes: the far end of a ``TCPPort`` or ``RFC2217Port``.
final class LoopbackServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private var connection: Int32 = -1

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && getsockname(listener, address, &length) == 0
                    && listen(listener, 1) == 0
            }
        }
        guard listening else {
            close(listener)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Accepts the connection (blocks).
    func accept() {
        connection = Glibc.accept(listener, nil, nil)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads exactly `count` bytes (fewer if the peer closes or 10 s pass).
    func read(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(connection, $0.baseAddress! + got, count - got) }
            guard n > 0 else { break }
            got += n
        }
        return Array(bytes[..<got])
    }

    func write(_ bytes: [UInt8]) {
        _ = Glibc.write(connection, bytes, bytes.count)
    }

    /// Closes the connection (the peer sees the end of the stream); once only, so
    /// that `deinit` does not close a descriptor number another test has since been
    /// given.
    func closeConnection() {
        if connection >= 0 { close(connection) }
        connection = -1
    }

    deinit {
        close(listener)
        closeConnection()
    }
}
