import Dispatch
import FoundationEssentials
import Synchronization
import TetherModel
import TetherPresenter
import TetherTransfer

/// The Mediator of a script run: the one object that knows every device, the view and
/// the script, so that none of them knows another.
///
/// - Each device's events are observed in a task of their own, rendered through the
///   ``RunPresenter`` on the view, then handed to the script thread through an
///   ``Inbox`` — so a record about a reply is always rendered before the script can
///   react to that reply, and the script sees each device's events in order. The inbox
///   holds 1024 events: a script that falls behind holds its devices back (their
///   observers are lossless), and loses nothing.
/// - The script thread (one dedicated thread per run) calls ``submit(_:to:timeout:)``
///   and ``next(until:)``; a script's reaction to one device (an `on` handler) sends
///   to another device through the same calls.
/// - Records are rendered under one lock, so the view sees one record at a time.
/// - With `capturesBytes` (a Lua run) each observer also asks for the received bytes
///   and keeps them, per device, for `dev.read` (``ReceivedBytes``). They are rendered
///   only to a view that shows the byte stream (``DeviceView/showsReceivedBytes``: a
///   transcript, which keeps the blank lines the session drops as framing); a run
///   writes no `received` record.
final class RunMediator: Sendable {
    /// The run's devices, numbered by their place here.
    let devices: [ScriptDevice]
    /// When the run started.
    let startTime: ContinuousClock.Instant = .now
    private let view: any RunView
    private let presenter: Mutex<RunPresenter>
    private let inbox = Inbox<MediatorEvent>()
    private let lostDevices = Mutex<Set<Int>>([])
    private let observers = Mutex<[Task<Void, Never>]>([])
    private let capturesBytes: Bool
    /// The view's ``DeviceView/showsReceivedBytes``, read once: every read asks it.
    private let viewShowsBytes: Bool
    /// Per device, the received bytes not yet read.
    private let received: Mutex<[ReceivedBytes]>

    /// Creates the mediator; ``start()`` attaches to the devices. `capturesBytes` keeps
    /// each device's received bytes for ``read(from:count:acceptsFewer:)``.
    init(devices: [ScriptDevice], view: any RunView, capturesBytes: Bool = false) {
        self.devices = devices
        self.view = view
        self.capturesBytes = capturesBytes
        viewShowsBytes = view.showsReceivedBytes
        presenter = Mutex(RunPresenter(devices: devices.map { ($0.name, $0.device.port) }, facts: devices.map(\.facts)))
        received = Mutex(Array(repeating: ReceivedBytes(), count: devices.count))
    }

    /// Attaches an observer to every device, then starts them (their `connected`
    /// records are rendered).
    func start() async {
        for (index, item) in devices.enumerated() {
            let events = item.device.events(.lossless, includesBytes: capturesBytes || viewShowsBytes)
            let task = Task { await self.observe(events, device: index) }
            observers.withLock { $0.append(task) }
        }
        for item in devices { await item.device.start() }
    }

    /// Closes every device and waits until each one's last record is rendered; first
    /// reports the bytes dropped unread on each device the script read from. The
    /// script has ended: the events still coming are rendered, and no longer queued.
    func close() async {
        for index in devices.indices where received.withLock({ $0[index].hasReader }) {
            reportDroppedBytes(of: index)
        }
        inbox.close()
        for item in devices { await item.device.close() }
        for task in observers.withLock({ $0 }) { await task.value }
    }

    /// Whether a device disconnected by itself during the run and is not being reopened.
    var hasLostDevice: Bool { lostDevices.withLock { !$0.isEmpty } }

    /// Renders a run record (from any thread).
    func report(_ event: RunEvent) {
        presenter.withLock { presenter in
            view.render(presenter.handle(event, at: Date()))
        }
    }

    /// Renders the summary and returns it.
    func finish(outcome: RunSummary.Outcome, unhandled: Int) -> RunSummary {
        presenter.withLock { presenter in
            let record = presenter.finish(
                outcome: outcome, unhandled: unhandled, duration: .now - startTime, at: Date())
            view.render(record)
            return presenter.summary
        }
    }

    /// The counts so far.
    var summary: RunSummary { presenter.withLock { $0.summary } }

    // MARK: - For the script thread

    /// Queues the command whose exact bytes are `bytes` on device `index` and returns its request identity; the
    /// outcome arrives later as ``MediatorEvent/finished(device:id:outcome:)``. Commands
    /// go out in call order. Script thread only.
    func submit(bytes: [UInt8], to index: Int, timeout: Duration?) -> RequestID {
        devices[index].device.send(bytes: bytes, timeout: timeout)
    }

    /// Writes `bytes` exactly, no terminator, to device `index`: queued in turn with the
    /// commands (``Device/write(_:)``; ``MediatorEvent/written(device:id:)`` follows once
    /// written), or `immediately`, ahead of everything queued while the request in
    /// flight stays in flight (``Device/writeNow(_:)``). Script thread only.
    ///
    /// - Returns: the queued write's identity; `nil` for an immediate write.
    func write(_ bytes: [UInt8], to index: Int, immediately: Bool) -> RequestID? {
        if immediately {
            devices[index].device.writeNow(bytes)
            return nil
        }
        return devices[index].device.write(bytes)
    }

    /// Takes `count` bytes of device `index`'s received bytes not yet read, as
    /// ``ReceivedBytes/take(_:acceptsFewer:)`` does; bytes dropped unread since the
    /// last look are reported first, as a `warning` of the device. Script thread only.
    func read(from index: Int, count: Int, acceptsFewer: Bool) -> [UInt8]? {
        reportDroppedBytes(of: index)
        return received.withLock { $0[index].take(count, acceptsFewer: acceptsFewer) }
    }

    /// Runs `machine` on device `index` (``Device/transfer(_:report:)``: the transfer
    /// owns the device's bytes, its queued commands wait) and waits for the outcome,
    /// blocking the calling thread. Script thread only: it is a thread of its own, never
    /// one of Swift's cooperative pool.
    ///
    /// - Returns: the outcome, and the files received whole (also those of a batch that
    ///   failed later), in order.
    func transfer(_ machine: some TransferMachine, on index: Int) -> (TransferOutcome, received: [TransferFile]) {
        let device = devices[index].device
        let result = Mutex<(TransferOutcome, received: [TransferFile])>((.failed(.cancelled), []))
        let done = DispatchSemaphore(value: 0)
        Task {
            let outcome = await device.transfer(machine) { event in
                if case .received(let file) = event { result.withLock { $0.received.append(file) } }
            }
            result.withLock { $0.0 = outcome }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }
    }

    /// Drops device `index`'s received bytes not yet read, and those read from the port
    /// until now that the observer has not handed over yet. Script thread only.
    ///
    /// - Returns: how many bytes were dropped.
    func discardInput(of index: Int) -> Int {
        reportDroppedBytes(of: index)
        let now = Date()
        return received.withLock { $0[index].discardAll(at: now) }
    }

    /// Reports, as a `warning` of device `index`, how many received bytes were
    /// dropped unread (past ``ReceivedBytes/limit``) since the last report.
    private func reportDroppedBytes(of index: Int) {
        let dropped = received.withLock { $0[index].takeDropped() }
        guard dropped > 0 else { return }
        let message =
            "\(dropped) received bytes were dropped unread: read keeps the latest \(ReceivedBytes.limit) bytes"
        present(DeviceEvent(kind: .error(message)), of: index)
    }

    /// Renders the records of device `index`'s `event` and hands the view its new state.
    private func present(_ event: DeviceEvent, of index: Int) {
        presenter.withLock { presenter in
            let (records, state) = presenter.handle(event, from: devices[index].name)
            guard let state else { return }
            for record in records {
                if case .received(let bytes) = record.event {
                    view.renderReceived(record, bytes: bytes, state: state)
                } else {
                    view.render(record, state: state)
                }
            }
            view.stateDidChange(state)
        }
    }

    /// Consumes the first `count` bytes of device `index`'s pending text that starts
    /// at `start`, which a wait matched (``Device/consumePendingText(start:count:)``).
    /// Script thread only.
    ///
    /// - Returns: `false` when they are no longer pending (the line ended meanwhile).
    func consumePendingText(of index: Int, start: Int, count: Int) -> Bool {
        devices[index].device.consumePendingText(start: start, count: count)
    }

    /// The next event of any device, waiting until `deadline` (`nil`: no deadline).
    /// Script thread only.
    func next(until deadline: ContinuousClock.Instant?) -> MediatorEvent? {
        inbox.take(until: deadline)
    }

    // MARK: - Observing

    private func observe(_ events: DeviceEvents, device index: Int) async {
        let name = devices[index].name
        var ending = (reason: "closed", isLost: false)
        for await event in events {
            if case .received(let bytes) = event.kind {
                // A view that shows the byte stream (a transcript) gets them too.
                if viewShowsBytes { present(event, of: index) }
                if capturesBytes, received.withLock({ $0[index].append(bytes, readAt: event.time) }) {
                    await inbox.post(.bytesArrived(device: index))
                }
                continue
            }
            present(event, of: index)
            switch event.kind {
            case .session(.notification(let line)):
                await inbox.post(.line(device: index, line: line, kind: .notification))
            case .session(.pendingText(let line, let start)):
                await inbox.post(.pendingText(device: index, line: line, start: start))
            case .session(.lateReply(_, let reply)):
                for line in reply.lines + [reply.finalResult].compactMap({ $0 }) {
                    await inbox.post(.line(device: index, line: line, kind: .lateReply))
                }
            case .session(.replied(let id, _, let reply, _)):
                await inbox.post(.finished(device: index, id: id, outcome: .success(reply)))
            case .session(.failed(let id, _, let failure)):
                await inbox.post(.finished(device: index, id: id, outcome: .failure(failure)))
            case .disconnected(let reason):
                ending = (reason, true)
                lostDevices.withLock { _ = $0.insert(index) }
            case .reconnecting:
                // The device is reopened: the script goes on, its commands failing
                // until it is back (`run` over tcp:// or rfc2217://).
                ending = ("closed", false)
                lostDevices.withLock { _ = $0.remove(index) }
            case .lineEvent(let event):
                await inbox.post(.lineEvent(device: index, condition: LineCondition(event)))
            case .session(.sent(let id, _, _, isRaw: true)):
                await inbox.post(.written(device: index, id: id))
            case .session(.sent), .session(.partialReply), .session(.data), .session(.commandMode),
                .session(.settling), .session(.held), .connected,
                .settingMismatch, .missed, .error,
                .received, .wroteNow, .lineControl,
                .reconnected:
                break
            }
        }
        if !ending.isLost, let reason = devices[index].device.closeReason { ending.reason = reason }
        presenter.withLock { presenter in
            if let state = presenter.state(of: name) { view.finish(state) }
        }
        await inbox.post(.ended(device: index, reason: ending.reason, isLost: ending.isLost))
    }
}
