import Foundation
import Glibc

/// Debian's ser2net exporting one serial port on loopback, raw (`tcp://`) and with
/// RFC 2217 (`rfc2217://`), configured by the README's sample (examples/ser2net.yaml)
/// on free ports; stopped by ``stop()`` or when released.
final class Ser2net {
    /// Where Debian installs it (`apt-get install ser2net`, scripts/install-deps --test).
    static let executable = "/usr/sbin/ser2net"

    /// The raw TCP port.
    let rawPort: UInt16
    /// The RFC 2217 port.
    let telnetPort: UInt16
    private let configuration: String
    private let pidFile: String
    private var process: Subprocess?

    var rawAddress: String { "tcp://127.0.0.1:\(rawPort)" }
    var telnetAddress: String { "rfc2217://127.0.0.1:\(telnetPort)" }

    /// The README's sample configuration.
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../examples/ser2net.yaml").standardizedFileURL.path

    /// Writes the README's sample configuration for `device`, on free ports, into
    /// `folder` and starts ser2net.
    init(exporting device: String, in folder: TemporaryFolder) throws {
        rawPort = try Self.freePort()
        telnetPort = try Self.freePort()
        configuration = folder.path("ser2net.yaml")
        pidFile = folder.path("ser2net.pid")
        let yaml = try String(contentsOfFile: Self.sample, encoding: .utf8)
            .replacingOccurrences(of: "/tmp/envsim", with: device)
            .replacingOccurrences(of: "127.0.0.1,7000", with: "127.0.0.1,\(rawPort)")
            .replacingOccurrences(of: "127.0.0.1,7001", with: "127.0.0.1,\(telnetPort)")
        try yaml.write(toFile: configuration, atomically: true, encoding: .utf8)
        try start()
    }

    /// Starts ser2net (again) and waits until both ports listen.
    func start() throws {
        process = try Subprocess(path: Self.executable, ["-n", "-u", "-c", configuration, "-P", pidFile])
        guard waitUntil({ Self.isListening(rawPort) && Self.isListening(telnetPort) }) else {
            throw POSIXError(.ETIMEDOUT)
        }
    }

    /// Kills ser2net (SIGKILL: the connections drop as if the host went away).
    func stop() {
        guard let process else { return }
        process.send(SIGKILL)
        _ = process.wait()
        self.process = nil
    }

    deinit { stop() }

    /// A TCP port nothing listens on now (the kernel's choice for port 0).
    static func freePort() throws -> UInt16 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether a socket listens on 127.0.0.1:`port` (from /proc/net/tcp, so nothing
    /// connects and opens the device).
    static func isListening(_ port: UInt16) -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return false }
        let local = String(format: "0100007F:%04X", port)
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[1] == local && fields[3] == "0A"
        }
    }
}
