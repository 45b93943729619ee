/// A device's events for one observer, in the order they happened: what
/// ``Device/events(_:includesBytes:)`` returns.
///
/// Iterate it once (`for await event in events`). The sequence ends after the device
/// closes or disconnects for good; cancelling the iterating task, or dropping the
/// sequence and its iterator, detaches the observer (a lossless observer then no
/// longer holds the device back).
public struct DeviceEvents: AsyncSequence, Sendable {
    public typealias Element = DeviceEvent
    public typealias Failure = Never

    /// Detaches the observer when the last copy of the sequence or its iterator goes.
    final class Subscription: Sendable {
        let subscriber: EventSubscriber
        init(_ subscriber: EventSubscriber) { self.subscriber = subscriber }
        deinit { subscriber.detach() }
    }

    let subscription: Subscription

    init(_ subscriber: EventSubscriber) {
        subscription = Subscription(subscriber)
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(subscription: subscription)
    }

    /// Hands out one batch of events at a time, taken from the device in one step.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// What the sequence yields: one event.
        public typealias Element = DeviceEvent
        public typealias Failure = Never

        let subscription: Subscription
        private var batch: [DeviceEvent] = []
        private var index = 0

        init(subscription: Subscription) {
            self.subscription = subscription
        }

        /// The next event, waiting for it; `nil` at the end.
        public mutating func next() async -> DeviceEvent? {
            if index == batch.count {
                guard let events = await subscription.subscriber.take() else { return nil }
                batch = events
                index = 0
            }
            defer { index += 1 }
            return batch[index]
        }

        /// Every event waiting, in order, waiting for at least one; `nil` at the end.
        /// These are the events the port loop delivered together (one turn of the loop,
        /// or several when the observer fell behind; at most the delivery's buffer
        /// limit, ``EventDelivery``, plus one turn's) — for an observer that handles
        /// them as one batch, such as a view writing its output once per batch. Mixes
        /// with ``next()``: it starts after the last event `next()` returned.
        public mutating func nextBatch() async -> [DeviceEvent]? {
            if index < batch.count {
                defer { (batch, index) = ([], 0) }
                return index == 0 ? batch : Array(batch[index...])
            }
            guard let events = await subscription.subscriber.take() else { return nil }
            (batch, index) = ([], 0)
            return events
        }
    }
}
