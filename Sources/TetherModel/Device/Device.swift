import Synchronization
import TetherSerial

/// A connected device: the Model's face to the rest of tether.
///
/// A thin `Sendable` front over the device's port loop (`DeviceLoop`): one thread
/// per open port that owns the port, the framer and the ``Session``, and publishes
/// ``DeviceEvent``s to every observer in order. `query` and `send` queue a request
/// and write it at once from the caller's thread when the line is free; the reply is
/// matched on the loop and handed back.
///
/// When the device goes away (hang-up, `EIO`) the requests in flight fail and
/// `disconnected` is published. Without a ``PortOpener`` that ends the device; with
/// one, the device publishes `reconnecting`, reopens the port when it is back and
/// publishes `reconnected` with a fresh session.
///
/// ```swift
/// let device = try Device(transport: port, dialect: LineDialect(), settings: "115200 8N1")
/// let events = device.events(.lossless)   // attach before start to see `connected`
/// await device.start()
/// let reply = try await device.query("*IDN?", timeout: .seconds(1))
/// ```
///
/// ``open(_:configuration:dialect:pacing:)`` opens a port by path in one call.
public final class Device: Sendable {
    /// The port name as the user gave it.
    public let port: String
    /// How long a command's write may take before it is given up and its request fails.
    public let writeDeadline: WriteDeadline
    /// How its commands and replies are framed (a command's bytes with the terminator:
    /// ``Dialect/encode(_:)-([UInt8])``).
    public let dialect: any Dialect
    let loop: DeviceLoop

    /// The device's port-loop thread as a task executor, for a caller whose queries
    /// follow one another (a scripted test, a benchmark): in a task that prefers it —
    /// `await withTaskExecutorPreference(device.executor) { … }` or
    /// `Task(executorPreference: device.executor) { … }` — the nonisolated code after
    /// each `await` runs on the loop thread, in the loop turn that read the reply, so
    /// a round trip costs one thread wake-up fewer (the C client's two: the device's
    /// and the reader's), and the next command is written from the loop itself. The
    /// way SwiftNIO's event-loop executors work; `tether-bench rtt` uses it
    /// (docs/PERFORMANCE.md).
    ///
    /// Jobs run between the loop's reads and writes, so code run there must not block
    /// (no `sleep`, no blocking read: awaiting is fine) or the device is not read
    /// meanwhile; the loop thread's stack is 512 KB. Actor-isolated code still runs on
    /// its actor. While the loop is not serving the open port — before ``start()``
    /// returns, while the port is away (reconnecting), after the device ended — the
    /// jobs run on Swift's global concurrent executor instead, so such a task never
    /// waits for a loop that is gone.
    public var executor: any TaskExecutor { loop.executor }

    /// Creates a device over an open transport; call ``start()`` to begin reading.
    /// Requests made before that wait until the device has started.
    ///
    /// - Parameters:
    ///   - transport: the open port; the device owns it from now on and closes it.
    ///   - name: the port's name for events; defaults to the transport's name.
    ///   - dialect: how commands and replies are framed.
    ///   - settings: a summary of the serial settings for the `connected` event
    ///     (e.g. `115200 8N1`) when the transport reports none of its own
    ///     (`SerialTransport/settingsReport`; a `SerialPort` reads them back).
    ///   - maximumLineLength: the longest line in bytes (see ``LineFramer``).
    ///   - writeDeadline: how long a command's write may take (its bytes' time on the
    ///     wire at the port's baud rate, its pacing and a margin that follows the
    ///     request's timeout, ``WriteDeadline``) before it is given up — output held by
    ///     XOFF or CTS, a receiver slower than the line or one that stopped reading —
    ///     and its request fails (``RequestFailure/notAllSent(reason:)``).
    ///   - pacing: pauses between characters and after each command (``Pacing``;
    ///     none by default).
    ///   - discardsWaitingInput: what is waiting to be read when the port opens (and
    ///     each time it is reopened) is read and dropped, as pyserial's
    ///     `reset_input_buffer()` does, instead of becoming notifications (the default).
    ///   - reopener: reopens the port after a disconnect with the same settings; `nil`
    ///     (the default) makes a disconnect final.
    ///   - openingSequence: line states to run after each open (and reopen), before the
    ///     input waiting at open is taken in and requests go out: a board's reset
    ///     (`--reset esptool-classic`, ``LineSequence``); timed by the loop's `poll`,
    ///     reading meanwhile. A step the port refuses is an `error` event and ends it.
    /// - Throws: `SerialError/io(path:function:errno:message:)` naming `pipe` when the
    ///   process is out of file descriptors.
    public init(
        transport: any SerialTransport, name: String? = nil, dialect: any Dialect, settings: String,
        maximumLineLength: Int = LineFramer.defaultMaximumLineLength, writeDeadline: WriteDeadline = WriteDeadline(),
        pacing: Pacing = Pacing(), discardsWaitingInput: Bool = false, reopener: PortOpener? = nil,
        openingSequence: LineSequence? = nil
    ) throws(SerialError) {
        port = name ?? transport.name
        self.writeDeadline = writeDeadline
        self.dialect = dialect
        loop = try DeviceLoop(
            transport: transport, port: name ?? transport.name, settings: settings,
            session: Session(dialect: dialect, maximumLineLength: maximumLineLength), writeDeadline: writeDeadline,
            pacing: pacing, discardsWaitingInput: discardsWaitingInput, reopener: reopener,
            openingSequence: openingSequence)
    }

    /// A device dropped without ``close()`` closes: its loop ends and closes the port.
    deinit {
        let isStarted = loop.state.withLock { state in
            state.isClosing = true
            if case .created = state.phase { return false }
            return true
        }
        if isStarted { loop.wake() } else { loop.finish(reason: "closed") }
    }

    /// Attaches an observer. Attach before ``start()`` to see the `connected` event.
    /// The sequence ends after the device disconnects for good (without a reopener)
    /// or is closed.
    ///
    /// - Parameters:
    ///   - delivery: ``EventDelivery/lossless`` for an observer that must see
    ///     everything (the device stops reading while it is behind),
    ///     ``EventDelivery/lossy`` for one that may miss events and is told how many
    ///     (a `received` event counts as one event).
    ///   - includesBytes: `true` to get every chunk read from the port as
    ///     ``DeviceEvent/Kind/received(_:)``, in the same batch as and before the
    ///     session events it produced (a terminal's raw mode). Observers that do not
    ///     ask never see them, and cost nothing for them.
    public func events(_ delivery: EventDelivery, includesBytes: Bool = false) -> DeviceEvents {
        let loop = self.loop
        let subscriber = EventSubscriber(delivery, includesBytes: includesBytes) { loop.wake() }
        let isAttached = loop.state.withLock { state in
            if case .ended = state.phase { return false }
            state.subscribers.append(subscriber)
            if includesBytes { state.byteSubscriberCount += 1 }
            return true
        }
        if !isAttached { subscriber.finish() }
        return DeviceEvents(subscriber)
    }

    /// Attaches a lossy observer with room for `bufferLimit` events; see
    /// ``events(_:includesBytes:)`` and ``EventDelivery/lossy(bufferLimit:)``.
    public func events(bufferLimit: Int = 4096) -> DeviceEvents {
        events(.lossy(bufferLimit: bufferLimit))
    }

    /// Publishes `connected`, starts the port loop and returns once the input that was
    /// waiting when the port opened (a boot banner, an answer another program left
    /// unread) has been taken in as notifications. Idempotent.
    public func start() async {
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            let runs = loop.state.withLock { state -> Bool in
                switch state.phase {
                case .created:
                    state.phase = .catchingUp
                    state.publish(loop.openedEvents(of: state.transport) { .connected(port: port, settings: $0) })
                    state.startWaiters.append(started)
                    return true
                case .catchingUp:
                    state.startWaiters.append(started)
                    return false
                case .connected, .away, .ended:
                    started.resume()
                    return false
                }
            }
            if runs { _ = loop.start() }
        }
    }

    /// Sends `command` and waits for its reply.
    ///
    /// Cancelling the calling task ends the wait at once with
    /// ``RequestFailure/cancelled``: a request not yet sent leaves the queue; one
    /// already sent is treated as timed out (its late reply never answers the next
    /// request).
    ///
    /// - Parameters:
    ///   - command: the command without terminator; the dialect adds it.
    ///   - timeout: how long to wait once sent; `nil` for no deadline (a hang-up still
    ///     ends the wait).
    /// - Returns: the reply; check ``Reply/isError`` for an error reply.
    /// - Throws: ``RequestFailure`` on timeout, disconnect, cancellation, or when the
    ///   device is already closed or away (reconnecting): then it fails at once, not
    ///   sent.
    public func query(_ command: String, timeout: Duration?) async throws(RequestFailure) -> Reply {
        try await query(bytes: Array(command.utf8), timeout: timeout)
    }

    /// Sends the command whose exact bytes are `bytes` — every byte 0x00–0xFF as it is,
    /// the dialect's terminator after them — and waits for its reply, as
    /// ``query(_:timeout:)`` does. The dialect decides on the bytes decoded as UTF-8
    /// (``Request/command``).
    public func query(bytes: [UInt8], timeout: Duration?) async throws(RequestFailure) -> Reply {
        let ticket = Mutex(Ticket.waiting)
        let loop = self.loop
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Result<Reply, RequestFailure>, Never>) in
                loop.update { state in
                    // One step under the ticket's lock, so that a cancellation comes
                    // either before it (nothing is queued) or after it (it sees the
                    // identity to cancel), never between the check and the enqueue.
                    ticket.withLock { ticket in
                        if case .cancelled = ticket { return waiter.resume(returning: .failure(.cancelled)) }
                        ticket = .queued(state.enqueue(bytes, timeout: timeout, waiter: waiter))
                    }
                }
            }
        } onCancel: {
            let id = ticket.withLock { ticket -> RequestID? in
                defer { ticket = .cancelled }
                if case .queued(let id) = ticket { return id }
                return nil
            }
            if let id {
                loop.update { state in
                    let now = ContinuousClock.now
                    state.perform(state.session.cancel(id, now: now), now: now)
                }
            }
        }
        return try result.get()
    }

    /// A query's place in the queue, for cancellation.
    private enum Ticket {
        case waiting
        case queued(RequestID)
        case cancelled
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
        send(bytes: Array(command.utf8), timeout: timeout)
    }

    /// Queues the command whose exact bytes are `bytes` (the dialect's terminator after
    /// them) without waiting for its reply, as ``send(_:timeout:)`` does.
    @discardableResult
    public func send(bytes: [UInt8], timeout: Duration?) -> RequestID {
        loop.update { $0.enqueue(bytes, timeout: timeout, waiter: nil) }
    }

    /// Queues `bytes` as a raw write: in turn with the other requests (so typed lines
    /// and keystrokes stay in order), written exactly — no terminator — and done as
    /// soon as written: no reply is waited for. Published as `sent` with `isRaw`
    /// (``SessionEvent/sent(_:command:bytes:isRaw:)``), paced like a command.
    ///
    /// - Returns: the request's identity, in enqueue order.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> RequestID {
        loop.update { $0.enqueue(bytes, timeout: nil, isRaw: true, waiter: nil) }
    }

    /// Writes `bytes` at once — ahead of every queued request and of output not yet
    /// written, without pacing — from the caller's thread (what the port does not
    /// take now goes first when it can). The request in flight stays in flight: it
    /// ends as the device answers (a console's prompt after Ctrl-C, 0x03) or at its
    /// timeout. Published as ``DeviceEvent/Kind/wroteNow(_:)`` so logs record it.
    /// Does nothing while the device is away, once it is closing or after it ended.
    public func writeNow(_ bytes: [UInt8]) {
        loop.update { $0.writeNow(bytes, now: .now) }
    }

    /// Sends `command` as a person's answer to the pending text shown to them (a
    /// console's `login: ` or shell prompt, `connect`): that text is consumed first
    /// (``Session/consumeShownPendingText(now:)``), so it does not begin the command's
    /// echo line, and a command still waiting for its reply is over at the prompt.
    @discardableResult
    public func sendAtShownPrompt(_ command: String, timeout: Duration?) -> RequestID {
        sendAtShownPrompt(bytes: Array(command.utf8), timeout: timeout)
    }

    /// Sends the command whose exact bytes are `bytes` (the dialect's terminator after
    /// them) as a person's answer to the pending text shown, as
    /// ``sendAtShownPrompt(_:timeout:)`` does: a line typed with escapes (`\x03`).
    @discardableResult
    public func sendAtShownPrompt(bytes: [UInt8], timeout: Duration?) -> RequestID {
        loop.update { $0.enqueue(bytes, timeout: timeout, waiter: nil, answersShownPrompt: true) }
    }

    /// Consumes the first `count` bytes of the pending text that starts at `start`, as
    /// a reader that matched a prompt in them (a script's `expect`): the line they began
    /// then starts after them, and a request in flight sent before the text began is
    /// over, with what it took so far as its reply
    /// (``Session/consumePendingText(start:count:now:)``).
    ///
    /// - Parameters:
    ///   - start: the `start` of the ``SessionEvent/pendingText(_:start:)`` event read.
    ///   - count: how many bytes of its text were consumed.
    /// - Returns: `false` when they are no longer pending (their line ended meanwhile,
    ///   the device hung up or reconnected): nothing is changed then.
    public func consumePendingText(start: Int, count: Int) -> Bool {
        loop.update { state in
            guard case .connected = state.phase else { return false }
            let now = ContinuousClock.now
            guard let actions = state.session.consumePendingText(start: start, count: count, now: now) else {
                return false
            }
            state.perform(actions, now: now)
            return true
        }
    }

    /// Waits until every byte handed to the port is written (for up to its write's
    /// deadline, ``WriteDeadline``), then closes it. Pending requests fail: the one in flight with
    /// ``RequestFailure/stopped(reason:)``, queued ones with
    /// ``RequestFailure/notSent(reason:)``; observers' sequences end; a reconnect wait
    /// stops. No `disconnected` event is published for a close asked for.
    ///
    /// - Parameter reason: why the caller ends the device, as the failures show it
    ///   (`interrupted`); `closed` when not given.
    public func close(reason: String? = nil) async {
        await withCheckedContinuation { (closed: CheckedContinuation<Void, Never>) in
            beginClosing(reason: reason, waiter: closed)
        }
    }

    /// Starts closing at once, as ``close(reason:)`` does, without waiting for the port
    /// to close: nothing more is sent from the moment it returns. For a caller that
    /// cannot wait (a failed write to a log, reported from inside that write).
    public func stop(reason: String) {
        beginClosing(reason: reason, waiter: nil)
    }

    /// The reason given to ``close(reason:)`` or ``stop(reason:)``, once one was.
    public var closeReason: String? { loop.state.withLock { $0.closeReason } }

    private func beginClosing(reason: String?, waiter: CheckedContinuation<Void, Never>?) {
        enum Step { case done, wake, endHere }
        let step = loop.state.withLock { state -> Step in
            if case .ended = state.phase { return .done }
            if !state.isClosing { state.closeReason = reason }
            state.isClosing = true
            if let waiter { state.closeWaiters.append(waiter) }
            if case .created = state.phase { return .endHere }
            return .wake
        }
        switch step {
        case .done: waiter?.resume()
        case .wake: loop.wake()
        case .endHere: loop.finish(reason: "closed")
        }
    }
}
