import Glibc
import TetherPoll

/// The serving thread's loop: watches the master, feeds the device, applies the
/// ``FaultPlan`` and performs the outputs.
///
/// Confined to one thread; only ``ServingState`` is shared. While no client has the slave
/// open, the master reports `POLLHUP` continuously, so the loop does not poll the master
/// then but looks every ``connectPollInterval`` ms whether `POLLHUP` has cleared (Simulator/
/// README.md, "How the pseudo-terminal behaves"). Nothing is written while no client is connected: the
/// kernel would queue the bytes for the next client, who opens the port in cooked mode. A
/// client counts as connected once it has turned `ECHO` off, or ``rawModeGrace`` after it
/// opened the slave.
///
/// Outputs go: device → ``FaultInjector/replies(_:at:)`` (replies only) → the schedule →
/// when due, ``FaultInjector/prepare(_:isNotification:lineLimit:)`` → ``OutputShaper`` →
/// `write()`. The ``Transcript`` sees every `read()` and `write()` on the master.
struct ServeLoop {
    /// How often, in ms, the loop looks for a client opening the slave.
    static let connectPollInterval: Int32 = 10
    /// How long a client that has opened the slave may keep `ECHO` on before it counts as
    /// connected: a client sets raw mode just after its `open`, and a device that spoke in
    /// between would have its own bytes echoed back to it by the slave's line discipline.
    static let rawModeGrace = Duration.milliseconds(500)

    private struct PendingOutput {
        let due: ContinuousClock.Instant
        let action: DeviceOutput.Action
        /// Unsolicited (from a wake-up or the open), not a reply.
        let isNotification: Bool
    }

    /// How a round with a client ended.
    private enum Round {
        case serving
        /// The device asked for a hang-up: serving ends.
        case deviceHungUp
        /// The disconnect fault's hang-up is due.
        case faultHangUp
    }

    private var terminal: PseudoTerminal?
    let device: any SimulatedDevice
    let state: ServingState
    let wakeUp: WakeUpPipe
    private var link: DeviceLink?
    /// Where the client's modem lines and breaks are announced (``LineSignalListener``).
    private var signals: LineSignalListener?
    /// The client's baud rate as last told to the device.
    private var clientBaudRate: Int?
    let transcript: Transcript?
    let plan: FaultPlan

    private let clock = ContinuousClock()
    private var faults: FaultInjector
    /// The receiver without a FIFO of ``FaultPlan/receiveGap``, if any.
    private var receiveGate: ReceiveGate?
    /// The receiver slower than the client of ``FaultPlan/drainBaud`` and
    /// ``FaultPlan/holdInput``, if any.
    private var drainGate: DrainGate?
    private var shaper: OutputShaper
    private var burst: NotificationBurst?
    private var isConnected = false
    private var connectedAt = ContinuousClock.now
    /// When the slave was first seen open with `ECHO` still on (``rawModeGrace``).
    private var echoingSince: ContinuousClock.Instant?
    /// Lines handed to the writer since the client connected.
    private var linesThisConnection = 0
    /// Outputs not yet due, ordered by due instant (ties keep insertion order).
    private var pending: [PendingOutput] = []
    /// The last write was short: wait for `POLLOUT` before writing again.
    private var isTerminalFull = false
    /// When the disconnect fault fired (the device is no longer called), and why.
    private var hangUpStarted: (at: ContinuousClock.Instant, reason: String)?
    /// When the master closes, once everything queued has been written.
    private var hangUpAt: ContinuousClock.Instant?

    /// The longest a fault hang-up waits for queued bytes to be written.
    static let hangUpDrainLimit: Duration = .seconds(2)

    init(
        terminal: PseudoTerminal, device: any SimulatedDevice, state: ServingState,
        wakeUp: WakeUpPipe, link: DeviceLink?, faults plan: FaultPlan, transcript: Transcript?
    ) {
        self.terminal = terminal
        self.device = device
        self.state = state
        self.wakeUp = wakeUp
        self.link = link
        self.plan = plan
        self.transcript = transcript
        faults = FaultInjector(plan: plan)
        receiveGate = plan.receiveGap.map(ReceiveGate.init)
        if plan.drainBaud != nil || plan.holdInput != nil {
            drainGate = DrainGate(baudRate: plan.drainBaud, hold: plan.holdInput)
        }
        shaper = OutputShaper(plan: plan)
        signals = LineSignalListener(slavePath: terminal.slavePath)
    }

    /// Serves until ``Simulator/stop()``, a device hang-up, or a fault hang-up without
    /// reappearance, then closes the master and removes the link.
    mutating func run() {
        serving: while !state.withLock({ $0.isStopRequested }) {
            guard let terminal else { break }
            if !isConnected {
                lookForClient(on: terminal)
                continue
            }
            switch serveClient(on: terminal) {
            case .serving:
                continue
            case .deviceHungUp:
                break serving
            case .faultHangUp:
                if !disappearAndReappear() { break serving }
            }
        }
        if isConnected {
            device.clientDidDisconnect(at: clock.now)
        }
        signals?.close()
        transcript?.note("stopped")
        state.finish {
            $0.terminal?.close()
            $0.terminal = nil
            link?.remove()
        }
    }

    /// Takes a client that has opened the slave, or waits one interval for one.
    private mutating func lookForClient(on terminal: PseudoTerminal) {
        let isOpen = terminal.isSlaveOpen
        if isOpen, let attributes = terminal.clientAttributes, attributes.c_lflag & tcflag_t(ECHO) != 0 {
            let since = echoingSince ?? clock.now
            echoingSince = since
            if clock.now - since < Self.rawModeGrace {
                if wakeUp.wait(milliseconds: 1) { wakeUp.drain() }
                return
            }
        }
        echoingSince = nil
        if isOpen {
            isConnected = true
            state.withLock { $0.isClientConnected = true }
            let now = clock.now
            connectedAt = now
            linesThisConnection = 0
            faults.startConnection()
            drainGate?.startConnection()
            burst = plan.burst.map { NotificationBurst($0, connectedAt: now) }
            transcript?.note("client connected to \(terminal.slavePath)")
            schedule(device.clientDidConnect(at: now), from: now, isNotification: true)
        } else if wakeUp.wait(milliseconds: Self.connectPollInterval) {
            wakeUp.drain()
        }
    }

    /// One round with a client connected.
    private mutating func serveClient(on terminal: PseudoTerminal) -> Round {
        var now = clock.now
        while let first = pending.first, first.due <= now {
            pending.removeFirst()
            switch first.action {
            case .send(let bytes): enqueue(bytes, isNotification: first.isNotification, at: now)
            case .hangUp: return .deviceHungUp
            case .modemInputs(let inputs):
                terminal.play(inputs)
                transcript?.note("modem inputs: \(inputs)")
            }
        }
        if hangUpStarted == nil {
            if let due = burst?.nextDue, due <= now, let bytes = burst?.take(at: now) {
                enqueue(bytes, isNotification: true, at: now)
            }
            if case .after(let time) = plan.disconnect?.trigger, now >= connectedAt + time {
                beginHangUp(at: now, reason: "after \(time)")
            }
        }
        writeDue(to: terminal, at: now)
        if let started = hangUpStarted {
            if hangUpAt == nil, shaper.isEmpty {
                hangUpAt = now + Simulator.hangUpGrace
            }
            if now >= (hangUpAt ?? started.at + Self.hangUpDrainLimit) {
                return .faultHangUp
            }
        } else if let wake = device.nextWakeUp, wake <= now {
            schedule(device.wakeUp(at: now), from: now, isNotification: true)
            return .serving
        }

        let allowance = drainGate?.allowance(at: now) ?? .max
        let reading = allowance > 0 ? POLLIN : 0
        var entries = [
            pollfd(
                fd: terminal.master, events: Int16(isTerminalFull ? reading | POLLOUT : reading),
                revents: 0),
            pollfd(fd: wakeUp.readEnd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signals?.descriptor ?? -1, events: Int16(POLLIN), revents: 0),
        ]
        let timeout = nextDeadline(at: now).map { ($0 - now).pollTimeout } ?? -1
        guard poll(&entries, 3, timeout) > 0 else { return .serving }
        if entries[1].revents != 0 {
            wakeUp.drain()
        }
        if entries[2].revents != 0, let signals, hangUpStarted == nil {
            now = clock.now
            for signal in signals.receive() { tell(signal, at: now) }
        }
        let events = Int32(entries[0].revents)
        if events & POLLOUT != 0 {
            isTerminalFull = false
        }
        guard events & (POLLIN | POLLHUP | POLLERR) != 0 else { return .serving }

        let (reads, clientGone) = terminal.readAvailable(limit: allowance)
        now = clock.now
        drainGate?.didRead(reads.reduce(0) { $0 + $1.count }, at: now)
        if hangUpStarted == nil, let rate = terminal.clientBaudRate, rate != clientBaudRate {
            clientBaudRate = rate
            tell(.baudRate(rate), at: now)
        }
        for read in reads {
            var bytes = read
            if var gate = receiveGate {
                let (accepted, dropped) = gate.filter(read, at: now)
                receiveGate = gate
                if !dropped.isEmpty { transcript?.note("receive gap: dropped \(Transcript.shown(dropped))") }
                bytes = accepted
                if bytes.isEmpty { continue }
            }
            transcript?.record(.received, bytes)
            state.withLock { $0.record(received: bytes) }
            if hangUpStarted == nil {
                schedule(faults.replies(device.receive(bytes, at: now), at: now), from: now, isNotification: false)
            }
        }
        if clientGone || events & POLLHUP != 0 {
            endConnection(at: now)
            if hangUpStarted != nil { return .faultHangUp }
        }
        return .serving
    }

    /// Tells the device what the client did to the port, and schedules its answer.
    private mutating func tell(_ signal: LineSignal, at now: ContinuousClock.Instant) {
        transcript?.note("line signal: \(signal)")
        schedule(device.lineSignal(signal, at: now), from: now, isNotification: true)
    }

    /// The earliest instant the loop must wake for, or `nil` to wait for input only.
    ///
    /// - Parameter now: the instant the poll's events were chosen for: the drain gate's
    ///   next read is asked for that same instant, so a gate that let nothing be read
    ///   then always gives the loop a time to wake (asked a moment later, it could
    ///   allow a read and give none, and with POLLIN off the loop slept until some
    ///   other event: a device with nothing scheduled stopped reading for good).
    private func nextDeadline(at now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        var deadlines = [pending.first?.due]
        if !isTerminalFull { deadlines.append(shaper.nextDue) }
        deadlines.append(drainGate?.nextReadAt(after: now))
        if let started = hangUpStarted {
            deadlines.append(hangUpAt ?? started.at + Self.hangUpDrainLimit)
        } else {
            deadlines += [device.nextWakeUp, burst?.nextDue]
            if case .after(let time) = plan.disconnect?.trigger { deadlines.append(connectedAt + time) }
        }
        return deadlines.compactMap { $0 }.min()
    }

    /// Hands due bytes to the writer: faults applied, lines counted, and the disconnect
    /// fault started when its line count is reached.
    private mutating func enqueue(_ bytes: [UInt8], isNotification: Bool, at now: ContinuousClock.Instant) {
        var limit: Int?
        if hangUpStarted == nil, case .afterLines(let lines) = plan.disconnect?.trigger {
            limit = max(1, lines - linesThisConnection)
        }
        let prepared = faults.prepare(bytes, isNotification: isNotification, lineLimit: limit)
        linesThisConnection += prepared.linesEnded
        shaper.enqueue(prepared.bytes, at: now)
        if prepared.reachedLimit {
            beginHangUp(at: now, reason: "after \(linesThisConnection) lines")
        }
    }

    /// Writes what the shaper lets go now, until the pty's input queue is full.
    private mutating func writeDue(to terminal: PseudoTerminal, at now: ContinuousClock.Instant) {
        while !isTerminalFull, let bytes = shaper.nextWrite(at: now) {
            let written = terminal.write(bytes)
            if written > 0 {
                transcript?.record(.sent, bytes.prefix(written))
                shaper.didWrite(written, at: now)
            }
            if written < bytes.count {
                isTerminalFull = true
            }
        }
    }

    /// The disconnect fault fired: the device is no longer called and pending outputs are
    /// dropped; what is queued is still written.
    private mutating func beginHangUp(at now: ContinuousClock.Instant, reason: String) {
        hangUpStarted = (now, reason)
        hangUpAt = nil
        pending.removeAll()
        burst = nil
    }

    /// The client closed the slave, or the device is about to hang up on it.
    private mutating func endConnection(at now: ContinuousClock.Instant) {
        isConnected = false
        pending.removeAll()
        shaper.removeAll()
        burst = nil
        isTerminalFull = false
        state.withLock { $0.isClientConnected = false }
        device.clientDidDisconnect(at: now)
        transcript?.note("client disconnected")
    }

    /// Closes the master (the client sees a hang-up) and removes the link; after
    /// ``FaultPlan/Disconnect/reappearAfter`` opens a new pty and points the link to it.
    ///
    /// - Returns: `false` when the device does not come back (no reappearance, stop
    ///   requested meanwhile, or the new pty or link failed): serving ends.
    private mutating func disappearAndReappear() -> Bool {
        transcript?.note("hang-up: disconnect fault (\(hangUpStarted?.reason ?? ""))")
        hangUpStarted = nil
        hangUpAt = nil
        if isConnected {
            endConnection(at: clock.now)
        }
        state.withLock {
            $0.terminal?.close()
            $0.terminal = nil
        }
        terminal = nil
        link?.remove()
        guard let delay = plan.disconnect?.reappearAfter else { return false }
        let back = clock.now + delay
        while clock.now < back {
            if state.withLock({ $0.isStopRequested }) { return false }
            if wakeUp.wait(milliseconds: (back - clock.now).pollTimeout) {
                wakeUp.drain()
            }
        }
        do throws(SimulatorError) {
            let fresh = try PseudoTerminal()
            if let old = link {
                do throws(SimulatorError) {
                    link = try DeviceLink(path: old.path, target: fresh.slavePath)
                } catch {
                    fresh.close()
                    throw error
                }
            }
            terminal = fresh
            signals?.close()
            signals = LineSignalListener(slavePath: fresh.slavePath)
            state.withLock {
                $0.terminal = fresh
                $0.devicePath = fresh.slavePath
            }
            transcript?.note("reappeared as \(fresh.slavePath)")
            return true
        } catch {
            link = nil
            transcript?.note("cannot reappear: \(error)")
            return false
        }
    }

    /// Adds `outputs` to the schedule, their delays counted from `now`.
    private mutating func schedule(
        _ outputs: [DeviceOutput], from now: ContinuousClock.Instant, isNotification: Bool
    ) {
        for output in outputs {
            let item = PendingOutput(due: now + output.delay, action: output.action, isNotification: isNotification)
            let index = pending.firstIndex { $0.due > item.due } ?? pending.endIndex
            pending.insert(item, at: index)
        }
    }
}
