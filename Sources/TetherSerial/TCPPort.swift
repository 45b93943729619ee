import Glibc
import Synchronization
import TetherLibC

/// A serial port exported over raw TCP (ser2net's `accepter: tcp,…`, a terminal
/// server's raw mode): the bytes of the connection are the line's bytes, both ways.
///
/// The serial settings are the server's (its configuration says the baud rate); use
/// ``RFC2217Port`` to set them from here. The socket is non-blocking with `TCP_NODELAY`
/// (a command goes out at once, not after Nagle's delay); writes use `MSG_NOSIGNAL`, so
/// a server gone away is an error, not `SIGPIPE`. A connection closed or reset by the
/// server is the device hanging up.
///
/// A link cut without a word (a cable pulled, a host powered off, a route gone) is seen
/// too: the socket has TCP keepalive (``keepAliveIdle``, ``keepAliveInterval``,
/// ``keepAliveCount``: an idle connection is probed after 5 s, then every second, and
/// dropped after 5 probes unanswered) and `TCP_USER_TIMEOUT` (``userTimeout``: data the
/// server has not acknowledged for 10 000 ms drops the connection, RFC 5482), so either
/// way the connection ends within about 10 s of the cut, as a hang-up
/// (docs/REMOTE.md, "In detail").
public final class TCPPort: SerialTransport {
    /// The address as the user gave it (`tcp://host:7000`).
    public let name: String
    /// The connected socket.
    public let descriptor: Int32
    private let isClosed = Atomic(false)

    /// How long ``connect(to:port:name:timeout:)`` waits by default, in ms.
    public static let defaultConnectTimeout = 5_000
    /// Seconds a connection is idle before the first keepalive probe (`TCP_KEEPIDLE`).
    public static let keepAliveIdle: Int32 = 5
    /// Seconds between keepalive probes (`TCP_KEEPINTVL`).
    public static let keepAliveInterval: Int32 = 1
    /// Unanswered keepalive probes that drop the connection (`TCP_KEEPCNT`).
    public static let keepAliveCount: Int32 = 5
    /// How long data may stay unacknowledged by the server before the connection is
    /// dropped (`TCP_USER_TIMEOUT`, RFC 5482), in ms; also the most time a dead
    /// connection lingers once keepalive probing has begun.
    public static let userTimeout: Int32 = 10_000

    private init(name: String, descriptor: Int32) {
        self.name = name
        self.descriptor = descriptor
    }

    /// Connects to `host`:`port`, trying each address the name resolves to
    /// (`getaddrinfo`), each for at most `timeout` ms. Blocks.
    ///
    /// - Parameters:
    ///   - host: a host name, an IPv4 address, or an IPv6 address (no brackets).
    ///   - port: the TCP port.
    ///   - name: the address for messages and display, e.g. `tcp://host:7000`.
    ///   - timeout: the most time to wait for each address to accept, in ms.
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` naming `getaddrinfo`
    ///   (unknown host) or `connect` (refused: nothing listens, e.g. ser2net is not
    ///   running; unreachable; timed out).
    public static func connect(
        to host: String, port: UInt16, name: String, timeout: Int = defaultConnectTimeout
    ) throws(SerialError) -> TCPPort {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            let message = String(cString: gai_strerror(status))
            throw .io(
                path: name, function: "getaddrinfo", errno: 0, message: "cannot resolve \(Quoted(host)): \(message)")
        }
        defer { freeaddrinfo(first) }
        var failure = SerialError.io(path: name, function: "connect", errno: 0, message: "no address")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry?.pointee {
            entry = address.ai_next
            do throws(SerialError) {
                let socket = try open(address, name: name, timeout: timeout)
                return TCPPort(name: name, descriptor: socket)
            } catch {
                failure = error
            }
        }
        throw failure
    }

    /// Opens a non-blocking socket and connects it, waiting up to `timeout` ms.
    private static func open(_ address: addrinfo, name: String, timeout: Int) throws(SerialError) -> Int32 {
        let socket = Glibc.socket(address.ai_family, address.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw .fromErrno(errno, path: name, function: "socket") }
        var success = false
        defer { if !success { Glibc.close(socket) } }
        setOptions(of: socket)
        guard fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK) == 0 else {
            throw .fromErrno(errno, path: name, function: "fcntl")
        }
        if Glibc.connect(socket, address.ai_addr, address.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { throw connectFailure(errno, name: name) }
            var entry = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            let deadline = Deadline(milliseconds: timeout)
            while true {
                let ready = poll(&entry, 1, Int32(clamping: deadline.remainingMilliseconds))
                if ready > 0 { break }
                if ready == 0 { throw connectFailure(ETIMEDOUT, name: name) }
                if errno != EINTR { throw connectFailure(errno, name: name) }
            }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(socket, SOL_SOCKET, SO_ERROR, &code, &length)
            guard code == 0 else { throw connectFailure(code, name: name) }
        }
        success = true
        return socket
    }

    /// `TCP_NODELAY`, keepalive and `TCP_USER_TIMEOUT` (see the type's description). An
    /// option the kernel refuses is left at its default: the connection still works,
    /// only a silent cut is noticed later.
    private static func setOptions(of socket: Int32) {
        func set(_ level: Int32, _ option: Int32, _ value: Int32) {
            var value = value
            _ = setsockopt(socket, level, option, &value, socklen_t(MemoryLayout<Int32>.size))
        }
        let tcp = Int32(IPPROTO_TCP)
        set(tcp, TCP_NODELAY, 1)
        set(SOL_SOCKET, SO_KEEPALIVE, 1)
        set(tcp, TCP_KEEPIDLE, keepAliveIdle)
        set(tcp, TCP_KEEPINTVL, keepAliveInterval)
        set(tcp, TCP_KEEPCNT, keepAliveCount)
        set(tcp, TCP_USER_TIMEOUT, userTimeout)
    }

    private static func connectFailure(_ code: Int32, name: String) -> SerialError {
        .io(path: name, function: "connect", errno: code, message: String(cString: strerror(code)))
    }

    /// Reads what the connection holds, without blocking; see
    /// ``SerialTransport/receive(into:)``.
    ///
    /// - Returns: the bytes read; 0 when the server closed or reset the connection, or
    ///   the link was lost (`ETIMEDOUT`, `EHOSTUNREACH`, `ENETUNREACH`, `ENETDOWN`,
    ///   `EHOSTDOWN`);
    ///   ``SerialTransport/nothingReceived`` (−1) when nothing was waiting after all.
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` on other failures.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return Self.nothingReceived
            // Closed or reset by the server; or the link lost (keepalive or the user
            // timeout gave up: ETIMEDOUT, or the route's error when there is none).
            case ECONNRESET, EPIPE, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, ENETDOWN, EHOSTDOWN: return 0
            default: throw .fromErrno(errno, path: name, function: "recv")
            }
        }
    }

    /// Writes what the socket's send buffer takes now; see ``SerialTransport/transmit(_:)``.
    ///
    /// - Returns: the bytes written, 0 when the send buffer is full.
    /// - Throws: ``SerialError/disconnected(path:)`` when the connection is gone.
    public func transmit(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int {
        guard !bytes.isEmpty else { return 0 }
        while true {
            let count = send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return 0
            case EPIPE, ECONNRESET, ETIMEDOUT, ENOTCONN, EHOSTUNREACH, ENETUNREACH, ENETDOWN, EHOSTDOWN:
                throw .disconnected(path: name)
            default: throw .fromErrno(errno, path: name, function: "send")
            }
        }
    }

    /// Writes all of `bytes`, waiting up to `timeout` ms for room. Blocks; for opening
    /// and configuring, never on the port loop's hot path.
    ///
    /// - Throws: ``SerialError/disconnected(path:)``; ``SerialError/io(path:function:errno:message:)``
    ///   with `ETIMEDOUT` when the server takes nothing for `timeout` ms.
    func transmitAll(_ bytes: [UInt8], timeout: Int) throws(SerialError) {
        let deadline = Deadline(milliseconds: timeout)
        var sent = 0
        while sent < bytes.count {
            let count = try bytes.withBytes { (all) throws(SerialError) in
                try transmit(UnsafeRawBufferPointer(rebasing: all[sent...]))
            }
            sent += count
            if count == 0 {
                guard waits(for: POLLOUT, until: deadline) else {
                    throw .io(path: name, function: "send", errno: ETIMEDOUT, message: "the server takes no data")
                }
            }
        }
    }

    /// Waits for `event` (`POLLIN`, `POLLOUT`) until `deadline`.
    ///
    /// - Returns: whether the socket became ready (a hang-up counts as ready: the next
    ///   read says so).
    func waits(for event: Int32, until deadline: Deadline) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(event), revents: 0)
        while true {
            let ready = poll(&entry, 1, Int32(clamping: deadline.remainingMilliseconds))
            if ready >= 0 { return ready > 0 }
            if errno != EINTR { return true }
        }
    }

    /// Closes the connection; idempotent.
    public func close() {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Glibc.close(descriptor)
    }

    deinit { close() }
}
