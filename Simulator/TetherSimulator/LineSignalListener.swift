import Glibc

/// The socket where tether's pty compatibility layer announces what a client does to
/// a pty slave's modem lines and breaks: the abstract Unix datagram socket
/// `tether-pty-lines/<major>:<minor>` of the slave device, one datagram per change —
/// `L<n>` (the `TIOCM_DTR|TIOCM_RTS` bits now set), `B1` or `B0` (break on, off).
///
/// Only a client that links tether's `CPtyCompat` (tether itself, the test binaries)
/// announces; another program's changes stay unseen, as on any pty. Non-blocking,
/// close-on-exec; owned by the serving thread.
struct LineSignalListener {
    let descriptor: Int32

    /// Binds the socket of the pty slave at `slavePath`.
    ///
    /// - Returns: `nil` when the slave cannot be examined or the name is taken.
    init?(slavePath: String) {
        var status = stat()
        guard stat(slavePath, &status) == 0 else { return nil }
        let device = UInt64(status.st_rdev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~UInt64(0xfff))
        let minor = (device & 0xff) | ((device >> 12) & ~UInt64(0xff))
        let descriptor = socket(
            AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let name = Array("tether-pty-lines/\(major):\(minor)".utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (offset, byte) in name.enumerated() where offset + 1 < path.count { path[offset + 1] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + name.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else {
            Glibc.close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    /// The signals announced since the last call, in order.
    func receive() -> [LineSignal] {
        var signals: [LineSignal] = []
        var buffer = [UInt8](repeating: 0, count: 32)
        while true {
            let count = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            guard count > 0 else { return signals }
            let text = String(decoding: buffer[1..<count], as: UTF8.self)
            switch buffer[0] {
            case UInt8(ascii: "L"):
                if let bits = Int32(text) {
                    signals.append(.modemLines(dtr: bits & TIOCM_DTR != 0, rts: bits & TIOCM_RTS != 0))
                }
            case UInt8(ascii: "B"): signals.append(.breakSignal(isOn: text == "1"))
            default: break
            }
        }
    }

    func close() { Glibc.close(descriptor) }
}
