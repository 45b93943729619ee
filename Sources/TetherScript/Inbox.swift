import Dispatch
import Synchronization
import TetherModel

/// A first-in first-out queue that one thread waits on, with a deadline, while any
/// thread or task posts to it. Unbounded: posting never blocks or drops. Taking is
/// O(1) however long the backlog (the taken prefix is dropped in amortised steps).
final class Inbox<Item: Sendable>: Sendable {
    private struct Queue {
        var items: [Item] = []
        var head = 0
    }

    private let queue = Mutex(Queue())
    private let available = DispatchSemaphore(value: 0)

    /// Appends `item` and wakes the waiting thread.
    func post(_ item: Item) {
        queue.withLock { $0.items.append(item) }
        available.signal()
    }

    /// Takes the oldest item, waiting for one until `deadline` (`nil`: no deadline).
    /// Blocks the calling thread: never call it from Swift's cooperative pool.
    ///
    /// - Returns: the item, or `nil` when the deadline passed first.
    func take(until deadline: ContinuousClock.Instant?) -> Item? {
        if let deadline {
            let remaining = max(.zero, deadline - .now)
            let nanoseconds = Int(min(remaining, .seconds(86_400)).milliseconds) * 1_000_000
            guard available.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return nil }
        } else {
            available.wait()
        }
        return queue.withLock { queue in
            let item = queue.items[queue.head]
            queue.head += 1
            if queue.head >= 1024 && queue.head * 2 >= queue.items.count {
                queue.items.removeFirst(queue.head)
                queue.head = 0
            }
            return item
        }
    }
}
