import Dispatch
import Foundation
import TetherSerial

/// A connected device: the Model's face to the rest of tether.
///
/// It owns a ``SerialTransport`` and a ``Session``. Reading happens on a dedicated
/// thread (`read` blocks), writing on a serial dispatch queue; the actor applies the
/// session's rules and publishes ``DeviceEvent``s to every observer in order.
///
/// When the device goes away (hang-up, `EIO`) the requests in flight fail and
/// `disconnected` is published. Without a ``PortOpener`` that ends the device; with
/// one, the device publishes `reconnecting`, reopens the port when it is back (see
/// `Device+Reconnect.swift`) and publishes `reconnected` with a fresh session.
///
/// ```swift
/// let device = Device(transport: port, dialect: LineDialect(), settings: "115200 8N1")
/// let events = device.events()          // attach before start to see `connected`
/// await device.start()
/// let reply = try await device.query("*IDN?", timeout: .seconds(1))
/// ```
///
/// ``open(_:configuration:dialect:)`` opens a port by path in one call.
public actor Device {
    /// The port name as the user gave it.
    public nonisolated let port: String
    /// The open port; replaced on reconnect.
    var transport: any SerialTransport
    let settings: String
    /// The conversation on the current connection.
    var session: Session
    /// A session as new, put in place on reconnect (the same dialect and limits).
    let blankSession: Session
    /// Reopens the port after a disconnect; `nil`: a disconnect ends the device.
    let reopener: PortOpener?
    let hub = EventHub<DeviceEvent> { DeviceEvent(kind: .missed(count: $0)) }
    private var waiters: [RequestID: CheckedContinuation<Reply, any Error>] = [:]
    private let writer = DispatchQueue(label: "tether.device.write")
    private var timerDeadline: ContinuousClock.Instant?
    private var timer: Task<Void, Never>?
    private var reader: Task<Void, Never>?
    /// The reconnect loop while the device is away.
    var reconnection: Task<Void, Never>?
    private var isStarted = false
    /// Whether the port is open and read (false before start, while away, after end).
    var isConnected = false
    /// Counts connections, so a stale read or write failure of an earlier one is ignored.
    var generation = 0
    var isClosing = false
    private var endReason: String?

    /// How long one write may wait for the line to accept its bytes, in ms.
    public let writeTimeout: Int

    /// Creates a device over an open transport; call ``start()`` to begin reading.
    ///
    /// - Parameters:
    ///   - transport: the open port.
    ///   - name: the port's name for events; defaults to the transport's name.
    ///   - dialect: how commands and replies are framed.
    ///   - settings: a summary of the serial settings for the `connected` event
    ///     (e.g. `115200 8N1`).
    ///   - maximumLineLength: the longest line in bytes (see ``LineFramer``).
    ///   - writeTimeout: in ms.
    ///   - reopener: reopens the port after a disconnect with the same settings; `nil`
    ///     (the default) makes a disconnect final.
    public init(
        transport: any SerialTransport, name: String? = nil, dialect: any Dialect, settings: String,
        maximumLineLength: Int = LineFramer.defaultMaximumLineLength, writeTimeout: Int = 2_000,
        reopener: PortOpener? = nil
    ) {
        self.port = name ?? transport.name
        self.transport = transport
        self.settings = settings
        self.session = Session(dialect: dialect, maximumLineLength: maximumLineLength)
        self.blankSession = session
        self.writeTimeout = writeTimeout
        self.reopener = reopener
    }

    /// Attaches an observer; see ``EventHub``. Attach before ``start()`` to see the
    /// `connected` event. The stream ends after the device disconnects for good
    /// (without a reopener) or is closed.
    public nonisolated func events(bufferLimit: Int = 4096) -> AsyncStream<DeviceEvent> {
        hub.subscribe(bufferLimit: bufferLimit)
    }

    /// Publishes `connected` and starts reading. Idempotent.
    public func start() async {
        guard !isStarted else { return }
        isStarted = true
        hub.publish(DeviceEvent(kind: .connected(port: port, settings: settings)))
        isConnected = true
        await startReading()
    }

    /// Reads the current transport on a new thread, until it ends. Returns once the
    /// input that was waiting when the port opened (a boot banner, an answer another
    /// program left unread) has been taken in: with nothing in flight it becomes
    /// notifications, never the reply to the first command.
    func startReading() async {
        let (input, credits) = Self.startReading(transport)
        let generation = self.generation
        await withCheckedContinuation { (caughtUp: CheckedContinuation<Void, Never>) in
            reader = Task { [weak self] in
                var waiting: CheckedContinuation<Void, Never>? = caughtUp
                for await chunk in input {
                    if case .caughtUp = chunk {
                        waiting?.resume()
                        waiting = nil
                    } else {
                        await self?.handle(chunk, generation: generation)
                        credits.give()
                    }
                }
                waiting?.resume()
            }
        }
    }

    /// Sends `command` and waits for its reply.
    ///
    /// - Parameters:
    ///   - command: the command without terminator; the dialect adds it.
    ///   - timeout: how long to wait once sent; `nil` for no deadline (a hang-up still
    ///     ends the wait).
    /// - Returns: the reply; check ``Reply/isError`` for an error reply.
    /// - Throws: ``RequestFailure`` on timeout, disconnect, or when the device is
    ///   already closed, or away (reconnecting): then it fails at once, not sent.
    public func query(_ command: String, timeout: Duration?) async throws(RequestFailure) -> Reply {
        do {
            return try await withCheckedThrowingContinuation { continuation in
                let (id, actions) = session.enqueue(command, timeout: timeout, now: .now)
                waiters[id] = continuation
                perform(actions)
            }
        } catch let failure as RequestFailure {
            throw failure
        } catch {
            throw .notSent(reason: "\(error)")
        }
    }

    /// Queues `command` without waiting for its reply.
    ///
    /// The request is handled exactly like a ``query(_:timeout:)`` — sent in turn, its
    /// reply (or timeout) matched by the dialect — but the caller does not wait: the
    /// outcome is published to observers as the `sent`, `replied` or `failed` event
    /// carrying the returned identity. On a device that is closed or gone the request
    /// fails at once (`notSent`); observers attached before the end see that too.
    ///
    /// - Parameters:
    ///   - command: the command without terminator; the dialect adds it.
    ///   - timeout: how long to wait for the reply once sent; `nil` for no deadline.
    /// - Returns: the request's identity, in enqueue order.
    @discardableResult
    public func send(_ command: String, timeout: Duration?) -> RequestID {
        let (id, actions) = session.enqueue(command, timeout: timeout, now: .now)
        perform(actions)
        return id
    }

    /// Waits until every byte handed to the port is written, then closes it. Pending
    /// requests fail with ``RequestFailure/disconnected(reason:)``; observers' streams
    /// end; a reconnect wait stops. No `disconnected` event is published for a close
    /// asked for.
    public func close() async {
        guard endReason == nil else { return }
        isClosing = true
        reconnection?.cancel()
        // Closed on the writer queue, after the writes queued before it: closing a tty
        // can block while it drains, which must not happen on the cooperative pool.
        let transport = self.transport
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            writer.async {
                transport.close()
                done.resume()
            }
        }
        if !isConnected { end(reason: "closed") }
        await reconnection?.value
        await reader?.value
    }

    private func handle(_ chunk: ReadChunk, generation: Int) {
        guard generation == self.generation else { return }
        switch chunk {
        case .data(let bytes):
            perform(session.receive(bytes, now: .now))
        case .end(let reason):
            connectionLost(reason: reason)
        case .caughtUp:
            break  // taken by the reading task in startReading(); never handed here
        }
    }

    /// The device went away: fail what is pending, then end or start reconnecting.
    private func connectionLost(reason: String) {
        guard isConnected else { return }
        guard let reopener, !isClosing else { return end(reason: reason) }
        isConnected = false
        timer?.cancel()
        timer = nil
        perform(session.hangUp(reason: reason, now: .now))
        hub.publish(DeviceEvent(kind: .disconnected(reason: reason)))
        hub.publish(DeviceEvent(kind: .reconnecting))
        let transport = self.transport
        writer.async { transport.close() }
        let lostAt = ContinuousClock.now
        reconnection = Task { [weak self] in
            await self?.reconnect(using: reopener, since: lostAt)
        }
    }

    func end(reason: String) {
        guard endReason == nil else { return }
        let reason = isClosing ? "closed" : reason
        endReason = reason
        isConnected = false
        reconnection?.cancel()
        timer?.cancel()
        perform(session.hangUp(reason: reason, now: .now))
        if !isClosing { hub.publish(DeviceEvent(kind: .disconnected(reason: reason))) }
        hub.finish()
    }

    private func tick() {
        perform(session.expire(now: .now))
    }

    func perform(_ actions: [SessionAction]) {
        for action in actions {
            switch action {
            case .write(let bytes):
                write(bytes)
            case .emit(let event):
                resolveWaiter(for: event)
                hub.publish(DeviceEvent(kind: .session(event)))
            }
        }
        scheduleTimer()
    }

    private func resolveWaiter(for event: SessionEvent) {
        switch event {
        case .replied(let id, _, let reply, _):
            waiters.removeValue(forKey: id)?.resume(returning: reply)
        case .failed(let id, _, let failure):
            waiters.removeValue(forKey: id)?.resume(throwing: failure)
        case .sent, .notification, .lateReply, .partialReply:
            break
        }
    }

    private func write(_ bytes: [UInt8]) {
        let transport = self.transport
        let timeout = writeTimeout
        let generation = self.generation
        writer.async { [weak self] in
            do throws(SerialError) {
                try transport.write(bytes, timeout: timeout)
            } catch {
                Task { await self?.writeFailed(error, generation: generation) }
            }
        }
    }

    private func writeFailed(_ error: SerialError, generation: Int) {
        guard endReason == nil, isConnected, generation == self.generation else { return }
        hub.publish(DeviceEvent(kind: .error("write failed: \(error)")))
        if case .disconnected = error { connectionLost(reason: error.description) }
    }

    /// Arms the timer for the session's next deadline; a timer already armed for that
    /// deadline is kept, so received chunks do not each make a task.
    private func scheduleTimer() {
        let deadline = session.nextDeadline
        guard deadline != timerDeadline || timer == nil else { return }
        timer?.cancel()
        timerDeadline = deadline
        guard let deadline else {
            timer = nil
            return
        }
        timer = Task { [weak self] in
            do {
                try await Task.sleep(until: deadline, clock: .continuous)
            } catch {
                return
            }
            await self?.tick()
        }
    }
}
