import Glibc

/// The serving thread's loop: watches the master, feeds the device, performs its outputs.
///
/// Confined to one thread; only ``ServingState`` is shared. While no client has the slave
/// open, the master reports `POLLHUP` continuously, so the loop does not poll the master
/// then but looks every ``connectPollInterval`` ms whether `POLLHUP` has cleared (fact 5
/// in shared/cases/README.md). Nothing is written while no client is connected: the
/// kernel would queue the bytes for the next client, who opens the port in cooked mode.
struct ServeLoop {
    /// How often, in ms, the loop looks for a client opening the slave.
    static let connectPollInterval: Int32 = 10

    private struct PendingOutput {
        let due: ContinuousClock.Instant
        let action: DeviceOutput.Action
    }

    let terminal: PseudoTerminal
    let device: any SimulatedDevice
    let state: ServingState
    let wakeUp: WakeUpPipe
    let link: DeviceLink?

    private let clock = ContinuousClock()
    private var isConnected = false
    /// Outputs not yet due, ordered by due instant (ties keep insertion order).
    private var pending: [PendingOutput] = []
    /// Bytes due but not yet accepted by the client's input queue.
    private var outbox: [UInt8] = []

    init(
        terminal: PseudoTerminal, device: any SimulatedDevice, state: ServingState,
        wakeUp: WakeUpPipe, link: DeviceLink?
    ) {
        self.terminal = terminal
        self.device = device
        self.state = state
        self.wakeUp = wakeUp
        self.link = link
    }

    /// Serves until ``Simulator/stop()`` or a device hang-up, then closes the master and
    /// removes the link.
    mutating func run() {
        while !state.withLock({ $0.isStopRequested }) {
            if !isConnected {
                lookForClient()
            } else if !serveClient() {
                break
            }
        }
        if isConnected {
            device.clientDidDisconnect(at: clock.now)
        }
        state.finish {
            terminal.close()
            link?.remove()
        }
    }

    /// Takes a client that has opened the slave, or waits one interval for one.
    private mutating func lookForClient() {
        if terminal.isSlaveOpen {
            isConnected = true
            state.withLock { $0.isClientConnected = true }
            let now = clock.now
            schedule(device.clientDidConnect(at: now), from: now)
        } else if wakeUp.wait(milliseconds: Self.connectPollInterval) {
            wakeUp.drain()
        }
    }

    /// One round with a client connected.
    ///
    /// - Returns: `false` when a hang-up ended serving.
    private mutating func serveClient() -> Bool {
        var now = clock.now
        while let first = pending.first, first.due <= now {
            pending.removeFirst()
            switch first.action {
            case .send(let bytes): outbox += bytes
            case .hangUp: return false
            }
        }
        if !outbox.isEmpty {
            outbox.removeFirst(terminal.write(outbox[...]))
        }
        if let wake = device.nextWakeUp, wake <= now {
            schedule(device.wakeUp(at: now), from: now)
            return true
        }

        var entries = [
            pollfd(
                fd: terminal.master, events: Int16(outbox.isEmpty ? POLLIN : POLLIN | POLLOUT),
                revents: 0),
            pollfd(fd: wakeUp.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        let deadline = [pending.first?.due, device.nextWakeUp].compactMap { $0 }.min()
        let timeout = deadline.map { Self.milliseconds(from: now, to: $0) } ?? -1
        guard poll(&entries, 2, timeout) > 0 else { return true }
        if entries[1].revents != 0 {
            wakeUp.drain()
        }
        let events = Int32(entries[0].revents)
        guard events & (POLLIN | POLLHUP | POLLERR) != 0 else { return true }

        let (reads, clientGone) = terminal.readAvailable()
        now = clock.now
        for bytes in reads {
            state.withLock { $0.received += bytes }
            schedule(device.receive(bytes, at: now), from: now)
        }
        if clientGone || events & POLLHUP != 0 {
            isConnected = false
            pending.removeAll()
            outbox.removeAll()
            state.withLock { $0.isClientConnected = false }
            device.clientDidDisconnect(at: now)
        }
        return true
    }

    /// Adds `outputs` to the schedule, their delays counted from `now`.
    private mutating func schedule(_ outputs: [DeviceOutput], from now: ContinuousClock.Instant) {
        for output in outputs {
            let item = PendingOutput(due: now + output.delay, action: output.action)
            let index = pending.firstIndex { $0.due > item.due } ?? pending.endIndex
            pending.insert(item, at: index)
        }
    }

    /// Milliseconds from `now` to `deadline`, rounded up (so `poll` never wakes early and
    /// spins), 0 when the deadline has passed.
    private static func milliseconds(
        from now: ContinuousClock.Instant, to deadline: ContinuousClock.Instant
    ) -> Int32 {
        let (seconds, attoseconds) = (deadline - now).components
        guard seconds >= 0, seconds > 0 || attoseconds > 0 else { return 0 }
        let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: millis)
    }
}
