import Dispatch
import FoundationEssentials
import Synchronization
import TetherModel
import TetherPresenter

/// The Mediator of a script run: the one object that knows every device, the view and
/// the script, so that none of them knows another.
///
/// - Each device's events are observed in a task of their own, rendered through the
///   ``RunPresenter`` on the view, then handed to the script thread through an
///   ``Inbox`` — so a record about a reply is always rendered before the script can
///   react to that reply, and the script sees each device's events in order.
/// - The script thread (one dedicated thread per run) calls ``submit(_:to:timeout:)``
///   and ``next(until:)``; a script's reaction to one device (an `on` handler) sends
///   to another device through the same calls.
/// - Records are rendered under one lock, so the view sees one record at a time.
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

    /// Creates the mediator; ``start()`` attaches to the devices.
    init(devices: [ScriptDevice], view: any RunView) {
        self.devices = devices
        self.view = view
        presenter = Mutex(RunPresenter(devices: devices.map { ($0.name, $0.device.port) }))
    }

    /// Attaches an observer to every device, then starts them (their `connected`
    /// records are rendered).
    func start() async {
        for (index, item) in devices.enumerated() {
            let events = item.device.events(.lossless)
            let task = Task { await self.observe(events, device: index) }
            observers.withLock { $0.append(task) }
        }
        for item in devices { await item.device.start() }
    }

    /// Closes every device and waits until each one's last record is rendered.
    func close() async {
        for item in devices { await item.device.close() }
        for task in observers.withLock({ $0 }) { await task.value }
    }

    /// Whether a device disconnected by itself during the run.
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
            presenter.withLock { presenter in
                let (records, state) = presenter.handle(event, from: name)
                guard let state else { return }
                for record in records { view.render(record, state: state) }
                view.stateDidChange(state)
            }
            switch event.kind {
            case .session(.notification(let line)):
                inbox.post(.line(device: index, line: line, kind: .notification))
            case .session(.pendingText(let line, let start)):
                inbox.post(.pendingText(device: index, line: line, start: start))
            case .session(.lateReply(_, let reply)):
                for line in reply.lines + [reply.finalResult].compactMap({ $0 }) {
                    inbox.post(.line(device: index, line: line, kind: .lateReply))
                }
            case .session(.replied(let id, _, let reply, _)):
                inbox.post(.finished(device: index, id: id, outcome: .success(reply)))
            case .session(.failed(let id, _, let failure)):
                inbox.post(.finished(device: index, id: id, outcome: .failure(failure)))
            case .disconnected(let reason):
                ending = (reason, true)
                lostDevices.withLock { _ = $0.insert(index) }
            case .session(.sent), .session(.partialReply), .connected, .settingMismatch, .missed, .error, .reconnecting,
                .received, .wroteNow,
                .reconnected:
                break
            }
        }
        if !ending.isLost, let reason = devices[index].device.closeReason { ending.reason = reason }
        presenter.withLock { presenter in
            if let state = presenter.state(of: name) { view.finish(state) }
        }
        inbox.post(.ended(device: index, reason: ending.reason, isLost: ending.isLost))
    }
}
