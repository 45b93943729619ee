import CPtyCompat
import Glibc

/// The master side of a pseudo-terminal, whose slave a client opens as its serial port.
///
/// Opened with `openpty`; the simulator closes its own slave descriptor at once, because
/// the kernel reports `POLLHUP` on the master ("no client") only after the slave has been
/// opened and closed (measured: a slave never opened shows no `POLLHUP`). The slave keeps
/// the kernel's default termios (cooked mode): the client must set raw mode itself. The
/// master is non-blocking and close-on-exec.
struct PseudoTerminal: Sendable {
    /// The master's file descriptor, owned by the serving thread.
    let master: Int32
    /// The slave's path, e.g. `/dev/pts/7`.
    let slavePath: String

    /// Opens a new pseudo-terminal.
    ///
    /// - Throws: ``SimulatorError`` `.pseudoTerminalUnavailable` with the errno of
    ///   `openpty` or `ttyname_r`.
    init() throws(SimulatorError) {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else {
            throw SimulatorError(.pseudoTerminalUnavailable, "openpty failed", osError: errno)
        }
        defer { Glibc.close(slave) }
        var name = [CChar](repeating: 0, count: 128)
        let nameError = ttyname_r(slave, &name, name.count)
        guard nameError == 0 else {
            Glibc.close(master)
            throw SimulatorError(
                .pseudoTerminalUnavailable, "cannot name the pseudo-terminal", osError: nameError)
        }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        self.master = master
        self.slavePath = String(
            decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether a client has the slave open: the master does not report `POLLHUP`.
    var isSlaveOpen: Bool {
        var entry = pollfd(fd: master, events: 0, revents: 0)
        guard poll(&entry, 1, 0) >= 0 else { return false }
        return entry.revents & Int16(POLLHUP) == 0
    }

    /// Reads everything the client has sent so far, up to `limit` bytes, one array per
    /// `read()` call.
    ///
    /// - Returns: The reads, and `true` when the master reported that the slave is closed.
    func readAvailable(limit: Int = .max) -> (reads: [[UInt8]], clientGone: Bool) {
        var reads: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var left = limit
        while left > 0 {
            let size = min(left, buffer.count)
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, size) }
            if count > 0 {
                reads.append(Array(buffer[0..<count]))
                left -= count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                let gone = count == 0 || errno != EAGAIN
                return (reads, gone)
            }
        }
        return (reads, false)
    }

    /// Writes as much of `bytes` as the client's input queue takes, in one `write()`.
    ///
    /// - Returns: The number of bytes written (0 when the queue is full or on error).
    func write(_ bytes: ArraySlice<UInt8>) -> Int {
        let written = bytes.withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
        return max(written, 0)
    }

    /// The slave's termios as the client left it (`tcgetattr` on the master reads the slave's).
    var clientAttributes: termios? {
        var attributes = termios()
        return tcgetattr(master, &attributes) == 0 ? attributes : nil
    }

    /// The slave's output baud rate as the client set it (bit/s), read with `TCGETS2` on
    /// the master, which shares the slave's termios, so also a rate set as `BOTHER`
    /// (libserialport's 921600); `nil` when unknown.
    var clientBaudRate: Int? {
        var input: UInt32 = 0
        var output: UInt32 = 0
        guard tether_tty_get_speeds(master, &input, &output) == 0, output > 0 else { return nil }
        return Int(output)
    }

    /// Closes the master: the client sees a hang-up.
    func close() {
        Glibc.close(master)
    }
}
