import Dispatch
import Synchronization
import TetherPresenter

/// Draws the latest view state on change, at most every ``interval`` (100 ms: ten
/// frames a second) however fast the state changes, and — with `idleInterval` —
/// also when nothing changed for that long (so ages and downtimes keep counting).
///
/// All drawing happens on one serial queue, so `draw` is never called twice at once.
final class LiveRefresh: Sendable {
    /// The shortest time between two draws.
    static let interval = DispatchTimeInterval.milliseconds(100)

    private struct Pending {
        var state: ViewState?
        var isChanged = false
        var ticksSinceDraw = 0
        var isFinished = false
    }

    private let queue = DispatchQueue(label: "tether.live-refresh")
    private let pending = Mutex(Pending())
    /// Held in a mutex only to be `Sendable`: set in `init`, cancelled in `finish`.
    private let timer: Mutex<any DispatchSourceTimer>
    private let draw: @Sendable (ViewState) -> Void

    /// Starts the clock.
    ///
    /// - Parameters:
    ///   - idleTicks: redraw after this many ``interval``s without change; `nil`
    ///     draws only on change.
    ///   - draw: draws a state; called on the refresh queue.
    init(idleTicks: Int?, draw: @escaping @Sendable (ViewState) -> Void) {
        self.draw = draw
        self.timer = Mutex(DispatchSource.makeTimerSource(queue: queue))
        timer.withLock { timer in
            timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval)
            timer.setEventHandler { [weak self] in self?.tick(idleTicks: idleTicks) }
            timer.resume()
        }
    }

    private func tick(idleTicks: Int?) {
        let due: ViewState? = pending.withLock { pending in
            pending.ticksSinceDraw += 1
            let isIdleDue = idleTicks.map { pending.ticksSinceDraw >= $0 } ?? false
            guard !pending.isFinished, pending.isChanged || isIdleDue, let state = pending.state else { return nil }
            pending.isChanged = false
            pending.ticksSinceDraw = 0
            return state
        }
        if let due { draw(due) }
    }

    /// Notes a new state; it is drawn at the next tick.
    func submit(_ state: ViewState) {
        pending.withLock {
            $0.state = state
            $0.isChanged = true
        }
    }

    /// Draws the latest state now (e.g. after the terminal was resized), on the queue.
    func redrawNow() {
        queue.async { [self] in
            let state = pending.withLock { pending -> ViewState? in
                guard !pending.isFinished else { return nil }
                pending.isChanged = false
                pending.ticksSinceDraw = 0
                return pending.state
            }
            if let state { draw(state) }
        }
    }

    /// Stops the clock; draws `state` first when it was not drawn yet, then runs
    /// `last` on the queue and returns when both are done.
    func finish(_ state: ViewState, last: @escaping @Sendable () -> Void = {}) {
        timer.withLock { $0.cancel() }
        queue.sync {
            let undrawn = pending.withLock { pending -> Bool in
                defer { pending.isFinished = true }
                return pending.isChanged || pending.state != state
            }
            if undrawn { draw(state) }
            last()
        }
    }

    /// Runs `work` on the refresh queue, after any draw in progress.
    func perform(_ work: @escaping @Sendable () -> Void) { queue.async(execute: work) }
}
