import Foundation
import Glibc

/// Debian's ser2net exporting one serial port on loopback, raw (`tcp://`) and with
/// RFC 2217 (`rfc2217://`), configured by docs/REMOTE.md's sample (examples/ser2net.yaml)
/// on free ports — or on another "host", a ``NetworkHost``'s address inside its
/// namespace; stopped by ``stop()`` or when released.
final class Ser2net {
    /// Where Debian installs it (`apt-get install ser2net`, scripts/install-deps --test).
    static let executable = "/usr/sbin/ser2net"

    /// The raw TCP port.
    let rawPort: UInt16
    /// The RFC 2217 port.
    let telnetPort: UInt16
    /// The IPv4 address it listens on.
    let host: String
    private let configuration: String
    private let pidFile: String
    private let networkHost: NetworkHost?
    private var process: Subprocess?

    var rawAddress: String { "tcp://\(host):\(rawPort)" }
    var telnetAddress: String { "rfc2217://\(host):\(telnetPort)" }

    /// docs/REMOTE.md's sample configuration.
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../examples/ser2net.yaml").standardizedFileURL.path

    /// Writes docs/REMOTE.md's sample configuration for `device`, on free ports, into
    /// `folder` and starts ser2net.
    convenience init(exporting device: String, in folder: TemporaryFolder) throws {
        try self.init(exporting: device, in: folder, on: nil, ports: (Self.freePort(), Self.freePort()))
    }

    /// Writes docs/REMOTE.md's sample configuration for `device` into `folder`, on
    /// `networkHost`'s address and the sample's ports (7000 raw, 7001 RFC 2217), and
    /// starts ser2net inside that host's namespace. With `kickolduser: true`: a link cut
    /// leaves ser2net holding the dead connection (its own TCP gives up only after
    /// minutes), and the client's reconnect takes the port over.
    convenience init(exporting device: String, in folder: TemporaryFolder, on networkHost: NetworkHost) throws {
        try self.init(exporting: device, in: folder, on: networkHost, ports: (7000, 7001))
    }

    private init(
        exporting device: String, in folder: TemporaryFolder, on networkHost: NetworkHost?,
        ports: (raw: UInt16, telnet: UInt16)
    ) throws {
        (rawPort, telnetPort) = ports
        host = networkHost?.address ?? "127.0.0.1"
        self.networkHost = networkHost
        let name = networkHost?.name ?? "ser2net"
        configuration = folder.path("\(name).yaml")
        pidFile = folder.path("\(name).pid")
        var yaml = try String(contentsOfFile: Self.sample, encoding: .utf8)
            .replacingOccurrences(of: "/tmp/envsim", with: device)
            .replacingOccurrences(of: "127.0.0.1,7000", with: "\(host),\(rawPort)")
            .replacingOccurrences(of: "127.0.0.1,7001", with: "\(host),\(telnetPort)")
        if networkHost != nil {
            yaml = yaml.replacingOccurrences(
                of: "      chardelay: false\n", with: "      chardelay: false\n      kickolduser: true\n")
        }
        try yaml.write(toFile: configuration, atomically: true, encoding: .utf8)
        try start()
    }

    /// Starts ser2net (again) and waits until both ports listen.
    func start() throws {
        let arguments = ["-n", "-u", "-c", configuration, "-P", pidFile]
        let started = try networkHost?.start(Self.executable, arguments)
        let process = try started ?? Subprocess(path: Self.executable, arguments)
        self.process = process
        let listening = { (port: UInt16) in Self.isListening(self.host, port, pid: process.pid) }
        guard waitUntil({ listening(rawPort) && listening(telnetPort) }) else {
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

    /// Whether a socket listens on `host`:`port` in the network namespace of process
    /// `pid` (from its /proc/PID/net/tcp, so nothing connects and opens the device).
    static func isListening(_ host: String, _ port: UInt16, pid: pid_t) -> Bool {
        guard let table = try? String(contentsOfFile: "/proc/\(pid)/net/tcp", encoding: .utf8) else { return false }
        // The kernel prints the address as the 32-bit word it holds (network order).
        let local = String(format: "%08X:%04X", inet_addr(host), port)
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[1] == local && fields[3] == "0A"
        }
    }
}
