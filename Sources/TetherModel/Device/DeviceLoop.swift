import Glibc
import Synchronization
import TetherLibC
import TetherPoll
import TetherSerial
import TetherTransfer

/// A device's port loop: one thread that owns the port, `poll`s it and a wake-up pipe
/// with the session's next deadline as its timeout, reads into one reusable buffer,
/// feeds the ``Session`` and publishes what it reports, writes what cannot be written
/// at once, and reopens the port after a disconnect — the shape of an event loop.
///
/// Other threads and tasks share ``LoopState`` with it under one lock and wake it
/// through the pipe only when it must change what it waits for; tasks that prefer its
/// thread (``LoopExecutor``) run at the end of each turn while it serves the port. Blocking calls
/// (`poll`, opening a port, closing one) happen on this thread only, never on Swift's
/// cooperative pool. docs/ARCHITECTURE.md draws the byte path.
final class DeviceLoop: Sendable {
    /// The longest sleep with nothing to time: the loop then looks again, so a request
    /// whose deadline is later than that needs no wake-up.
    static let idleHorizon = Duration.seconds(1)
    /// How long the input waiting at open may keep requests held (a device that never
    /// goes quiet still gets its commands).
    static let catchUpLimit = Duration.milliseconds(100)
    /// The read buffer, in bytes.
    static let readSize = 65_536

    let port: String
    /// The settings shown when the transport reports none of its own.
    let settings: String
    let reopener: PortOpener?
    /// Whether the input waiting at open is dropped rather than taken in.
    let discardsWaitingInput: Bool
    /// The line states run after each open, before the catch-up (`Device`'s `openingSequence`).
    let openingSequence: LineSequence?
    let state: Mutex<LoopState>
    let wakeUp: WakeUpPipe
    /// The loop thread as a task executor (``Device/executor``).
    let executor: LoopExecutor
    /// The looks at the modem status inputs (loop thread only; the lock is never contended).
    private let modemWatch = Mutex(ModemLineWatch())
    private let blankSession: Session

    init(
        transport: any SerialTransport, port: String, settings: String, session: Session, writeDeadline: WriteDeadline,
        pacing: Pacing = Pacing(), discardsWaitingInput: Bool = false, reopener: PortOpener?,
        openingSequence: LineSequence? = nil
    ) throws(SerialError) {
        self.port = port
        self.openingSequence = openingSequence
        self.discardsWaitingInput = discardsWaitingInput
        self.settings = settings
        self.reopener = reopener
        var session = session
        session.holdRequests()
        blankSession = session
        var initial = LoopState(session: session, writeDeadline: writeDeadline, pacing: pacing)
        initial.transport = transport
        state = Mutex(initial)
        wakeUp = try WakeUpPipe(for: port)
        executor = LoopExecutor(wakeUp: wakeUp)
    }

    deinit { wakeUp.close() }

    /// Wakes the loop out of `poll`.
    func wake() { wakeUp.signal() }

    /// Performs `change` on the state, wakes the loop if it must see it, and resumes the
    /// callers whose requests `change` ended — after releasing the lock, which they may
    /// need at once (a query after a query).
    func update<Result>(_ change: (inout LoopState) -> Result) -> Result {
        let (result, (wakes, resumptions)) = state.withLock { state in
            let result = change(&state)
            return (result, state.takeFollowUps())
        }
        if wakes { wake() }
        for (waiter, outcome) in resumptions { waiter.resume(returning: outcome) }
        return result
    }

    // MARK: - The loop

    /// Runs the loop on its own thread until the device ends.
    ///
    /// - Returns: `false` when no thread could be started (the device has then ended
    ///   with that reason).
    func start() -> Bool {
        let started = DedicatedThread.start { [self] in run() }
        if !started { finish(reason: "cannot start the port loop thread") }
        return started
    }

    enum Ending {
        case closing
        case hungUp(String)
    }

    private func run() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let ending = catchUp(buffer) ?? serve(buffer)
            switch ending {
            case .closing:
                drainOutput()
                return finish(reason: "closed")
            case .hungUp(let reason):
                guard let reopener, connectionLost(reason: reason) else { return finish(reason: reason) }
                let lostAt = ContinuousClock.now
                guard reconnect(using: reopener, since: lostAt) else { return finish(reason: "closed") }
            }
        }
    }

    /// Takes in the input that was waiting when the port opened (until the line has
    /// been quiet for 1 ms, for at most ``catchUpLimit``): with requests
    /// held it becomes notifications, never the reply to the first command — or is
    /// dropped unread by the session (``discardsWaitingInput``). Then releases the
    /// requests and the callers of ``Device/start()``.
    private func catchUp(_ buffer: UnsafeMutableRawBufferPointer) -> Ending? {
        guard let transport = state.withLock({ $0.transport }) else { return .closing }
        if let openingSequence, let ending = runOpening(openingSequence, on: transport, buffer) { return ending }
        let until = ContinuousClock.now + Self.catchUpLimit
        while ContinuousClock.now < until {
            var entry = pollfd(fd: transport.descriptor, events: Int16(POLLIN), revents: 0)
            let count = poll(&entry, 1, 1)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            if let ending = receive(from: transport, into: buffer, discarding: discardsWaitingInput) { return ending }
        }
        update { state in
            let now = ContinuousClock.now
            state.phase = .connected
            // A transfer begun before the start keeps them until it ends.
            if state.transfer == nil {
                state.perform(state.session.releaseRequests(endingWaitingText: true, now: now), now: now)
            }
            for waiter in state.startWaiters { waiter.resume() }
            state.startWaiters.removeAll()
        }
        return nil
    }

    /// Serves the open port until it hangs up or the device is closed.
    private func serve(_ buffer: UnsafeMutableRawBufferPointer) -> Ending {
        var descriptors = [pollfd(), pollfd(fd: wakeUp.readEnd, events: Int16(POLLIN), revents: 0)]
        modemWatch.withLock { $0.reset() }
        executor.beginServing()
        defer { executor.endServing() }
        while true {
            let plan = state.withLock { $0.planPoll(now: .now, idleHorizon: Self.idleHorizon) }
            guard let (transport, events, plannedTimeout) = plan else { return .closing }
            let source = transport as? any ModemStatusSource
            let timeout =
                source == nil ? plannedTimeout : modemWatch.withLock { $0.timeout(atMost: plannedTimeout, now: .now) }
            descriptors[0] = pollfd(fd: transport.descriptor, events: events, revents: 0)
            descriptors[1].revents = 0
            // A job waiting for the loop (``LoopExecutor``) runs this turn: poll without sleeping.
            let count = poll(&descriptors, 2, executor.prepareToSleep() ? timeout : 0)
            let pollError = count < 0 ? errno : 0  // before the lock, whose futex call may set errno
            executor.wokeUp()
            let runsLines = state.withLock { state in
                state.sleepsUntil = nil
                return state.lineSchedule.nextDeadline != nil
            }
            if count < 0 && pollError != EINTR {
                return .hungUp("poll failed: \(String(cString: strerror(pollError)))")
            }
            if descriptors[1].revents != 0 {
                wakeUp.drain()
                runControls(with: transport)
            }
            if runsLines { runLineSteps(with: transport) }
            let revents = Int32(descriptors[0].revents)
            if revents & (POLLHUP | POLLERR | POLLNVAL) != 0 || (revents & POLLIN != 0 && events & Int16(POLLIN) != 0) {
                if let ending = receive(from: transport, into: buffer) { return ending }
            }
            if let source {
                let events = modemWatch.withLock { $0.look(at: source, now: .now) }
                if !events.isEmpty { update { $0.publish(events.map { DeviceEvent(kind: .lineEvent($0)) }) } }
            }
            update { $0.endTurn(isWritable: revents & POLLOUT != 0, now: .now) }
            // The tasks this turn resumed that prefer the loop, where they write their next command.
            executor.runJobs()
        }
    }

    /// Runs the port work callers asked for (``Device/withLineControl(_:)``), in order;
    /// `nil` while the port is away.
    private func runControls(with transport: (any SerialTransport)?) {
        let controls = state.withLock { state in
            defer { state.controls.removeAll() }
            return state.controls
        }
        for control in controls { control(transport) }
    }

    /// Reads what is waiting and hands it to the session, or drops it (`discarding`).
    ///
    /// - Returns: `nil`, or how the connection ended (hang-up, read error).
    func receive(
        from transport: any SerialTransport, into buffer: UnsafeMutableRawBufferPointer, discarding: Bool = false
    ) -> Ending? {
        let count: Int
        do throws(SerialError) {
            count = try transport.receive(into: buffer)
        } catch {
            return .hungUp(error.description)
        }
        let lineEvents = transport.takeLineEvents()
        guard count != 0 else { return .hungUp("device hung up") }
        if discarding { return nil }
        guard count > 0 else {
            // The transport's own traffic, or only line events: poll again.
            if !lineEvents.isEmpty { update { $0.receive([], placing: lineEvents, now: .now) } }
            return nil
        }
        let bytes = [UInt8](UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        if lineEvents.isEmpty {
            update { $0.receive(bytes, now: .now) }
        } else {
            update { $0.receive(bytes, placing: lineEvents, now: .now) }
        }
        return nil
    }

    /// Before closing: writes the raw writes still queued (``Session/releaseQueuedRawWrites()``),
    /// then lets pending output go out, until its write's deadline (``WriteDeadline``);
    /// paced output (``Pacing``) is dropped instead, so a close asked for is not held
    /// back by the pacing of what is left.
    private func drainOutput() {
        update { state in
            if state.transport != nil { state.perform(state.session.releaseQueuedRawWrites(), now: .now) }
        }
        while let (transport, timeout) = update({ state -> (any SerialTransport, Int32)? in
            let now = ContinuousClock.now
            state.expireOutput(now: now)
            guard state.output.isPending, let transport = state.transport else { return nil }
            // Paced output is given up: a close is asked for (Ctrl-C, SIGTERM, a quit), and
            // pacing what is left (a byte every --char-delay) would hold it back for as long.
            if state.nextWriteAt != nil {
                state.output.clear()
                return nil
            }
            return (transport, ((state.output.deadline ?? now) - now).pollTimeout)
        }) {
            var entry = pollfd(fd: transport.descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&entry, 1, timeout)
            update { $0.flush(now: .now) }
        }
    }

    // MARK: - Disconnect and reconnect

    /// The device went away and will be reopened: fails what is pending, publishes
    /// `disconnected` and `reconnecting`, and closes the old port.
    ///
    /// - Returns: `false` when the device is being closed instead.
    private func connectionLost(reason: String) -> Bool {
        let lost = update { state -> (any SerialTransport)?? in
            guard !state.isClosing else { return .none }
            let now = ContinuousClock.now
            state.abandonTransfer(.disconnected(reason: reason))
            state.perform(state.session.hangUp(reason: reason, now: now), now: now)
            state.publish(.disconnected(reason: reason))
            state.publish(.reconnecting)
            state.phase = .away(since: now)
            state.output.clear()
            defer { state.transport = nil }
            return .some(state.transport)
        }
        guard let transport = lost else { return false }
        failLineSequences(.disconnected(path: port))
        transport?.close()
        return true
    }

    /// Reopens the port with the opener's backoff (100 ms doubling to 2 s by default),
    /// sleeping in `poll` on the wake-up pipe so waiting costs no CPU and a close ends
    /// it at once. A port that does not exist yet is the normal state while the device
    /// is away and is not reported; any other failure (busy, permission denied…) is
    /// published once as an `error` each time it changes. On success the device gets a
    /// fresh ``Session`` and publishes `reconnected`.
    ///
    /// - Returns: `false` when the device was closed meanwhile.
    private func reconnect(using opener: PortOpener, since lostAt: ContinuousClock.Instant) -> Bool {
        var attempts = 0
        var reported: String?
        while true {
            let wakeAt = ContinuousClock.now + opener.delay(afterFailures: attempts + 1)
            while !state.withLock({ $0.isClosing }), ContinuousClock.now < wakeAt {
                if wakeUp.wait(milliseconds: (wakeAt - .now).pollTimeout) {
                    wakeUp.drain()
                    runControls(with: nil)
                }
            }
            if state.withLock({ $0.isClosing }) { return false }
            attempts += 1
            do throws(SerialError) {
                let fresh = try opener.open()
                if let baudRate = state.withLock({ $0.baudRate }), let control = fresh as? any LineControl {
                    try control.setBaudRate(baudRate)
                }
                let accepted = state.withLock { state in
                    guard !state.isClosing else { return false }
                    state.transport = fresh
                    state.session = blankSession
                    state.phase = .catchingUp
                    state.publish(
                        openedEvents(of: fresh) { settings in
                            .reconnected(port: port, settings: settings, attempts: attempts, downtime: .now - lostAt)
                        })
                    return true
                }
                if !accepted { fresh.close() }
                return accepted
            } catch .notFound {
                continue
            } catch {
                let message = "cannot reopen the port yet: \(error)"
                if message != reported { state.withLock { $0.publish(.error(message)) } }
                reported = message
            }
        }
    }

    /// The events that say `transport` is open (see ``DeviceEvent/opened(_:settings:as:)``).
    func openedEvents(
        of transport: (any SerialTransport)?, _ opened: (String) -> DeviceEvent.Kind
    ) -> [DeviceEvent] {
        DeviceEvent.opened(transport?.settingsReport ?? SettingsReport(), settings: settings, as: opened)
    }

    /// Ends the device (see ``LoopState/end(reason:)``), closes the port and resumes
    /// the callers of ``Device/close()``.
    func finish(reason: String) {
        let (transport, closers) = update { $0.end(reason: reason) }
        failLineSequences(.disconnected(path: port))
        transport?.close()
        for closer in closers { closer.resume() }
    }
}
