import Dispatch
import Glibc
import Synchronization
import TetherLibC

/// `connect --socket unix:PATH` and `--pty`: the session shared with other programs,
/// as tio's `--socket`. Every byte received from the device also goes to each client
/// (a program connected to the socket, or whatever has the pseudo-terminal open), and
/// what a client writes goes to the device, in turn with what is typed.
///
/// One thread of its own polls the socket, the clients and a wake-up pipe; the caller
/// hands received bytes to ``deliver(_:)``, which never blocks: each client has up to
/// ``clientBufferLimit`` bytes waiting, and a socket client further behind is dropped
/// (a pseudo-terminal nobody reads keeps what its kernel buffer takes, the rest is
/// dropped). ``stop()`` closes everything and removes the socket's file.
public final class SessionShare: @unchecked Sendable {
    /// Why a share could not be opened, as the user reads it (exit 73).
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The most bytes waiting for one client: 1 MiB.
    public static let clientBufferLimit = 1 << 20

    /// The socket's path, if one was asked for.
    public let socketPath: String?
    /// The pseudo-terminal's path (`/dev/pts/N`) others open, if one was asked for.
    public let ptyPath: String?

    private struct Client {
        let descriptor: Int32
        /// A pseudo-terminal's master: never dropped.
        let isPseudoTerminal: Bool
        var pending: [UInt8] = []
    }

    private struct State {
        var clients: [Client] = []
        /// Clients dropped by ``deliver(_:)``, for the thread to close: only the thread
        /// closes a descriptor, so it never polls one closed (and maybe reused) meanwhile.
        var closing: [Int32] = []
        var isStopped = false
    }

    private let listener: Int32
    /// Kept open so the master never sees a hang-up while no program has the pty open.
    private let ptySlave: Int32
    private let wake: (read: Int32, write: Int32)
    private let state = Mutex(State())
    /// Signalled when the thread has closed everything.
    private let finished = DispatchSemaphore(value: 0)
    private let toDevice: @Sendable ([UInt8]) -> Void

    /// Opens the socket at `socketPath` (a stale socket there, nobody listening, is
    /// replaced) and, with `pty`, a pseudo-terminal in raw mode, and starts serving.
    ///
    /// - Parameter send: writes what a client sent to the device.
    /// - Throws: ``Failure`` when the path is too long for a socket (108 bytes), in use
    ///   by a live session, not a socket, or the socket or pty cannot be made.
    public init(socketPath: String?, pty: Bool, send: @escaping @Sendable ([UInt8]) -> Void) throws(Failure) {
        toDevice = send
        self.socketPath = socketPath
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Failure(description: Self.errorText("pipe")) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        wake = (ends[0], ends[1])
        var clients: [Client] = []
        var slave: Int32 = -1
        var ptyPath: String?
        do throws(Failure) {
            if pty {
                let (master, opened, path) = try Self.openPseudoTerminal()
                clients.append(Client(descriptor: master, isPseudoTerminal: true))
                slave = opened
                ptyPath = path
            }
            listener = try socketPath.map { (path) throws(Failure) in try Self.listen(at: path) } ?? -1
        } catch {
            for client in clients { close(client.descriptor) }
            if slave >= 0 { close(slave) }
            close(ends[0])
            close(ends[1])
            throw error
        }
        ptySlave = slave
        self.ptyPath = ptyPath
        state.withLock { $0.clients = clients }
        DedicatedThread.start { [self] in serve() }
    }

    /// Hands `bytes` received from the device to every client.
    public func deliver(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let isStopped = state.withLock { state in
            guard !state.isStopped else { return true }
            state.clients.removeAll { client in
                let isBehind = !client.isPseudoTerminal && client.pending.count + bytes.count > Self.clientBufferLimit
                if isBehind { state.closing.append(client.descriptor) }
                return isBehind
            }
            for index in state.clients.indices
            where state.clients[index].pending.count + bytes.count <= Self.clientBufferLimit {
                state.clients[index].pending += bytes
            }
            return false
        }
        if !isStopped { signal() }
    }

    /// Closes the clients, the socket (its file removed) and the pty, and returns once
    /// they are (waiting at most 2 s for the thread); idempotent.
    public func stop() {
        let first = state.withLock { state in
            defer { state.isStopped = true }
            return !state.isStopped
        }
        guard first else { return }
        signal()
        _ = finished.wait(timeout: .now() + 2)
    }

    private func signal() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    /// The thread's loop: accepts clients, reads what they send, writes what waits.
    private func serve() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let (clients, closing, isStopped) = state.withLock { state in
                defer { state.closing = [] }
                return (state.clients, state.closing, state.isStopped)
            }
            for descriptor in closing { close(descriptor) }
            if isStopped { return finish() }
            var entries = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            if listener >= 0 { entries.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
            let first = entries.count
            for client in clients {
                let events = POLLIN | (client.pending.isEmpty ? 0 : POLLOUT)
                entries.append(pollfd(fd: client.descriptor, events: Int16(events), revents: 0))
            }
            guard poll(&entries, nfds_t(entries.count), -1) >= 0 || errno == EINTR else { return finish() }
            if entries[0].revents != 0 { while read(wake.read, &buffer, buffer.count) > 0 {} }
            if listener >= 0, entries[1].revents & Int16(POLLIN) != 0 { accept() }
            for (offset, client) in clients.enumerated() {
                let revents = entries[first + offset].revents
                if revents & Int16(POLLOUT) != 0 { flush(client) }
                guard revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { continue }
                let count = read(client.descriptor, &buffer, buffer.count)
                if count > 0 {
                    toDevice(Array(buffer[..<count]))
                } else if !client.isPseudoTerminal && !(count < 0 && (errno == EINTR || errno == EAGAIN)) {
                    drop(client.descriptor)
                }
            }
        }
    }

    private func accept() {
        let client = Glibc.accept(listener, nil, nil)
        guard client >= 0 else { return }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        state.withLock { $0.clients.append(Client(descriptor: client, isPseudoTerminal: false)) }
    }

    /// Writes what the port takes now of what waits for `descriptor`.
    /// A socket is written with `MSG_NOSIGNAL`: a client gone is dropped, not SIGPIPE.
    private func flush(_ client: Client) {
        let descriptor = client.descriptor
        let pending = state.withLock { state in state.clients.first { $0.descriptor == descriptor }?.pending ?? [] }
        guard !pending.isEmpty else { return }
        let count = pending.withUnsafeBytes { bytes in
            client.isPseudoTerminal
                ? write(descriptor, bytes.baseAddress, bytes.count)
                : Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        }
        if count > 0 {
            state.withLock { state in
                guard let index = state.clients.firstIndex(where: { $0.descriptor == descriptor }) else { return }
                state.clients[index].pending.removeFirst(min(count, state.clients[index].pending.count))
            }
        } else if count < 0 && errno != EAGAIN && errno != EINTR {
            drop(descriptor)
        }
    }

    private func drop(_ descriptor: Int32) {
        let removed = state.withLock { state in
            let before = state.clients.count
            state.clients.removeAll { $0.descriptor == descriptor && !$0.isPseudoTerminal }
            return state.clients.count < before
        }
        if removed { close(descriptor) }
    }

    private func finish() {
        let clients = state.withLock { state in
            defer { state.clients = [] }
            return state.clients
        }
        for client in clients { close(client.descriptor) }
        if ptySlave >= 0 { close(ptySlave) }
        if listener >= 0 {
            close(listener)
            if let socketPath { unlink(socketPath) }
        }
        finished.signal()
    }

    deinit {
        // Here, not when the thread ends: a late deliver(_:) may still signal.
        close(wake.read)
        close(wake.write)
    }
}
