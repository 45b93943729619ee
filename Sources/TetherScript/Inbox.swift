import Dispatch
import Synchronization
import TetherModel

/// A first-in first-out queue of at most ``capacity`` items that one thread takes
/// from, with a deadline, while tasks post to it. Taking is O(1) however long the
/// backlog (the taken prefix is dropped in amortised steps).
///
/// **At the bound** a post waits (suspends its task) until the taker makes room: the
/// script's inbox is fed by lossless observers (``RunMediator``), so a script that
/// falls behind its devices holds their events back — the port loop stops reading and
/// the kernel's buffer, then the device's flow control, take the rest — and nothing is
/// dropped. Once ``close()`` says nobody takes any more, posts are dropped at once.
final class Inbox<Item: Sendable>: Sendable {
    /// The most items waiting (1024 for a run's events): what a script that falls
    /// behind, or never waits, can make tether hold.
    let capacity: Int

    private struct Entry {
        var item: Item
        /// When it was posted: ``take(until:)`` takes nothing posted after its deadline.
        var posted: ContinuousClock.Instant
    }

    private struct Queue {
        var items: [Entry] = []
        var head = 0
        var isClosed = false
        /// Posters waiting for room, oldest first.
        var waiting: [CheckedContinuation<Void, Never>] = []

        var count: Int { items.count - head }
    }

    private let queue = Mutex(Queue())
    private let available = DispatchSemaphore(value: 0)

    /// An empty inbox holding at most `capacity` items (1024 unless given).
    init(capacity: Int = 1024) {
        precondition(capacity > 0, "an inbox holds at least one item")
        self.capacity = capacity
    }

    /// Appends `item` and wakes the taker; while ``capacity`` items wait, first waits
    /// for room. After ``close()``, drops `item`.
    func post(_ item: Item) async {
        while true {
            let appended: Bool? = queue.withLock { queue in
                if queue.isClosed { return false }
                guard queue.count < capacity else { return nil }
                queue.items.append(Entry(item: item, posted: .now))
                return true
            }
            switch appended {
            case true?:
                available.signal()
                return
            case false?:
                return
            case nil:
                await withCheckedContinuation { continuation in
                    let isFull = queue.withLock { queue in
                        guard !queue.isClosed, queue.count >= capacity else { return false }
                        queue.waiting.append(continuation)
                        return true
                    }
                    if !isFull { continuation.resume() }
                }
            }
        }
    }

    /// Takes the oldest item posted by `deadline`, waiting for one until then (`nil`:
    /// no deadline). An item posted after the deadline stays for a later call, so a
    /// wait whose deadline has passed ends even while items keep coming. Blocks the
    /// calling thread: never call it from Swift's cooperative pool.
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
        let (item, poster) = queue.withLock { queue -> (Item?, CheckedContinuation<Void, Never>?) in
            let entry = queue.items[queue.head]
            if let deadline, entry.posted > deadline { return (nil, nil) }
            queue.head += 1
            if queue.head >= 1024 && queue.head * 2 >= queue.items.count {
                queue.items.removeFirst(queue.head)
                queue.head = 0
            }
            return (entry.item, queue.waiting.isEmpty ? nil : queue.waiting.removeFirst())
        }
        guard let item else {
            available.signal()  // the item stays: so does its count
            return nil
        }
        poster?.resume()
        return item
    }

    /// Says that nothing will be taken any more (the script has ended): waiting posts
    /// and later ones drop their items, so the observers feeding the inbox can finish.
    func close() {
        let waiting = queue.withLock { queue in
            queue.isClosed = true
            defer { queue.waiting = [] }
            return queue.waiting
        }
        for poster in waiting { poster.resume() }
    }
}
