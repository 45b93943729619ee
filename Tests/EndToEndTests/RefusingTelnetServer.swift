import Foundation
import Glibc

/// A telnet server on 127.0.0.1 that refuses every option (`WILL x` → `DONT x`,
/// `DO x` → `WONT x`, subnegotiations ignored) and answers each data line `L` with
/// `RAW <L>\r\n`: a terminal server without RFC 2217. Serves one connection.
final class RefusingTelnetServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var data: [UInt8] = []

    /// The data bytes received so far (telnet commands taken out).
    var received: [UInt8] { lock.withLock { data } }

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
        Thread.detachNewThread { [self] in serve() }
    }

    deinit { close(listener) }

    private func serve() {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        var pending: [UInt8] = []
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            pending += buffer[..<count]
            var replies: [UInt8] = []
            while let byte = pending.first {
                if byte != 255 {
                    pending.removeFirst()
                    lock.withLock { data.append(byte) }
                    if byte == 10 {
                        replies += Array("RAW \(String(decoding: line, as: UTF8.self))\r\n".utf8)
                        line.removeAll()
                    } else if byte != 13 {
                        line.append(byte)
                    }
                    continue
                }
                guard pending.count >= 2 else { break }
                let verb = pending[1]
                if verb == 250 {
                    guard let end = pending.indices.dropFirst(2).first(where: { pending[$0] == 240 }) else { break }
                    pending.removeFirst(end + 1)
                } else if (251...254).contains(verb) {
                    guard pending.count >= 3 else { break }
                    if verb == 251 { replies += [255, 254, pending[2]] }
                    if verb == 253 { replies += [255, 252, pending[2]] }
                    pending.removeFirst(3)
                } else {
                    if verb == 255 {
                        lock.withLock { data.append(verb) }
                        line.append(verb)
                    }
                    pending.removeFirst(2)
                }
            }
            if !replies.isEmpty { _ = write(connection, replies, replies.count) }
        }
    }
}
