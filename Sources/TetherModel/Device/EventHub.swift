import Synchronization

/// Delivers events to any number of observers, each through its own `AsyncStream`
/// (the Observer pattern).
///
/// Observers may attach and detach at any time. Each has a bounded buffer so a slow
/// one never stalls the publisher or the others; when its buffer is full, the events
/// it cannot take are counted, and the next event it does receive is preceded by
/// `makeGapEvent(count)` — a gap is never silent. Events reach every observer in
/// publication order.
public final class EventHub<Event: Sendable>: Sendable {
    private struct Subscriber {
        let continuation: AsyncStream<Event>.Continuation
        var missed = 0
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        var nextKey = 0
        var isFinished = false
    }

    private let state = Mutex(State())
    private let makeGapEvent: @Sendable (Int) -> Event

    /// Creates a hub.
    ///
    /// - Parameter makeGapEvent: the event that tells an observer how many events it
    ///   missed.
    public init(makeGapEvent: @escaping @Sendable (Int) -> Event) {
        self.makeGapEvent = makeGapEvent
    }

    /// Attaches an observer.
    ///
    /// - Parameter bufferLimit: how many undelivered events the observer may hold
    ///   (at least 2: one place is kept for the gap event).
    /// - Returns: the observer's events; cancelling the iteration detaches it. After
    ///   ``finish()`` the stream ends once drained.
    public func subscribe(bufferLimit: Int = 4096) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Event.self, bufferingPolicy: .bufferingOldest(max(2, bufferLimit)))
        let key: Int? = state.withLock { state in
            if state.isFinished { return nil }
            let key = state.nextKey
            state.nextKey += 1
            state.subscribers[key] = Subscriber(continuation: continuation)
            return key
        }
        guard let key else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
        }
        return stream
    }

    /// Sends `event` to every observer attached now.
    public func publish(_ event: Event) {
        state.withLock { state in
            for index in state.subscribers.indices {
                let continuation = state.subscribers.values[index].continuation
                var missed = state.subscribers.values[index].missed
                if missed > 0, case .enqueued = continuation.yield(makeGapEvent(missed)) {
                    missed = 0
                }
                if missed > 0 {
                    missed += 1
                } else if case .dropped = continuation.yield(event) {
                    missed = 1
                }
                state.subscribers.values[index].missed = missed
            }
        }
    }

    /// Ends every observer's stream (after the events already buffered) and refuses
    /// new observers.
    public func finish() {
        let continuations = state.withLock { state in
            state.isFinished = true
            defer { state.subscribers.removeAll() }
            return state.subscribers.values.map(\.continuation)
        }
        for continuation in continuations { continuation.finish() }
    }
}
