import Synchronization

/// One observer's buffer between a device's port loop and the observer's task.
///
/// The loop adds events (``deliver(_:)``) under the buffer's lock; the observer takes
/// every waiting event at once (``take()``), so a fast device costs one hand-over per
/// batch, not per line. A lossless observer that has ``EventDelivery`` `bufferLimit`
/// events waiting holds the loop back (``holdsBack()``) and wakes it when it takes
/// them; a lossy one counts what it cannot hold and receives `missed(count)` before
/// its next event and at the end.
final class EventSubscriber: Sendable {
    private struct Buffer {
        var events: [DeviceEvent] = []
        var missed = 0
        var isFinished = false
        var isDetached = false
        var waiter: UnsafeContinuation<Void, Never>?
        /// The loop stopped reading for this observer and waits to be woken.
        var wakesLoop = false
    }

    private let limit: Int
    private let isLossless: Bool
    /// Whether the observer asked for received bytes (``DeviceEvent/Kind/received(_:)``).
    let includesBytes: Bool
    private let buffer = Mutex(Buffer())
    private let wakeLoop: @Sendable () -> Void

    /// Creates a buffer for an observer.
    ///
    /// - Parameters:
    ///   - delivery: lossless or lossy, and how many events may wait.
    ///   - includesBytes: whether it gets the bytes read, as `received` events.
    ///   - wakeLoop: wakes the port loop (its wake-up pipe).
    init(_ delivery: EventDelivery, includesBytes: Bool = false, wakeLoop: @escaping @Sendable () -> Void) {
        self.includesBytes = includesBytes
        switch delivery {
        case .lossless(let limit):
            (self.limit, isLossless) = (max(1, limit), true)
        case .lossy(let limit):
            (self.limit, isLossless) = (max(2, limit), false)
        }
        self.wakeLoop = wakeLoop
    }

    // MARK: - The loop's side

    /// Adds `events` in order (a lossy observer drops what does not fit, counting it).
    ///
    /// - Returns: `false` when the observer has gone: forget this subscriber.
    func deliver(_ events: [DeviceEvent]) -> Bool {
        let (isAttached, waiter) = buffer.withLock { buffer -> (Bool, UnsafeContinuation<Void, Never>?) in
            guard !buffer.isDetached else { return (false, nil) }
            if isLossless {
                // An empty buffer takes the batch as it is: no copy, no retain per event.
                if buffer.events.isEmpty { buffer.events = events } else { buffer.events += events }
            } else {
                for event in events {
                    if buffer.events.count >= limit {
                        buffer.missed += 1
                        continue
                    }
                    if buffer.missed > 0 {
                        buffer.events.append(DeviceEvent(time: event.time, kind: .missed(count: buffer.missed)))
                        buffer.missed = 0
                    }
                    buffer.events.append(event)
                }
            }
            defer { buffer.waiter = nil }
            return (true, buffer.waiter)
        }
        waiter?.resume()
        return isAttached
    }

    /// Whether this is a lossless observer with a full buffer; if so, it wakes the loop
    /// once it has taken its events.
    func holdsBack() -> Bool {
        guard isLossless else { return false }
        return buffer.withLock { buffer in
            guard !buffer.isDetached, buffer.events.count >= limit else { return false }
            buffer.wakesLoop = true
            return true
        }
    }

    /// Ends the observer's sequence after the events it holds (a lossy observer's
    /// last gap is reported first).
    func finish() {
        let waiter = buffer.withLock { buffer in
            if buffer.missed > 0 {
                buffer.events.append(DeviceEvent(kind: .missed(count: buffer.missed)))
                buffer.missed = 0
            }
            buffer.isFinished = true
            defer { buffer.waiter = nil }
            return buffer.waiter
        }
        waiter?.resume()
    }

    // MARK: - The observer's side

    /// Takes every waiting event, waiting for at least one.
    ///
    /// - Returns: the events in order, or `nil` once the device has ended and
    ///   everything was taken, or the observer detached (its task was cancelled).
    func take() async -> [DeviceEvent]? {
        while true {
            let (events, isOver, wakesLoop) = buffer.withLock { buffer -> ([DeviceEvent], Bool, Bool) in
                let events = buffer.events
                buffer.events = []
                defer { buffer.wakesLoop = false }
                return (events, buffer.isDetached || (events.isEmpty && buffer.isFinished), buffer.wakesLoop)
            }
            if wakesLoop { wakeLoop() }
            if !events.isEmpty { return events }
            if isOver { return nil }
            await withTaskCancellationHandler {
                await withUnsafeContinuation { (waiter: UnsafeContinuation<Void, Never>) in
                    let isReady = buffer.withLock { buffer in
                        if !buffer.events.isEmpty || buffer.isFinished || buffer.isDetached { return true }
                        buffer.waiter = waiter
                        return false
                    }
                    if isReady { waiter.resume() }
                }
            } onCancel: {
                detach()
            }
        }
    }

    /// The observer has gone: its events are dropped and the loop no longer waits for it.
    func detach() {
        let (waiter, wakesLoop) = buffer.withLock { buffer in
            buffer.isDetached = true
            buffer.events = []
            defer { buffer.waiter = nil }
            return (buffer.waiter, buffer.wakesLoop)
        }
        waiter?.resume()
        if wakesLoop { wakeLoop() }
    }
}
