import Foundation
import Synchronization
import Testing

@testable import TetherScript

/// The script's inbox: a wait ends at its deadline while items keep coming, and the
/// queue is bounded, holding posters back rather than dropping.
@Suite struct InboxTests {
    /// `sleep()` pumped events that arrived after its deadline, so a device sending
    /// faster than the handlers ran kept it from returning: an item posted after the
    /// deadline is not taken by a wait for that deadline, and stays for the next.
    @Test func anItemPostedAfterTheDeadlineWaitsForTheNextTake() async {
        let inbox = Inbox<Int>()
        await inbox.post(1)
        let deadline = ContinuousClock.now
        await inbox.post(2)
        #expect(inbox.take(until: deadline) == 1)
        #expect(inbox.take(until: deadline) == nil)
        #expect(inbox.take(until: .now) == 2)
        #expect(inbox.take(until: .now) == nil)
    }

    /// The inbox had no bound: at its capacity a post waits until an item is taken,
    /// and every item arrives, in order.
    @Test func aFullInboxHoldsThePosterBackAndLosesNothing() async {
        let inbox = Inbox<Int>(capacity: 2)
        let posted = Atomic(0)
        let poster = Task {
            for item in 1...5 {
                await inbox.post(item)
                posted.add(1, ordering: .sequentiallyConsistent)
            }
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while posted.load(ordering: .sequentiallyConsistent) < 2, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        try? await Task.sleep(for: .milliseconds(100))
        #expect(posted.load(ordering: .sequentiallyConsistent) == 2, "a third post went in past the capacity")
        // Taking blocks its thread: a thread of its own, not one the poster needs.
        let taken = await withCheckedContinuation { continuation in
            Thread {
                var taken: [Int] = []
                while taken.count < 5, let item = inbox.take(until: .now + .seconds(30)) { taken.append(item) }
                continuation.resume(returning: taken)
            }.start()
        }
        await poster.value
        #expect(taken == [1, 2, 3, 4, 5])
    }

    /// Once nobody takes (the script has ended), a waiting post and later ones return
    /// at once, so the observers feeding the inbox can finish.
    @Test func closingReleasesWaitingPosters() async {
        let inbox = Inbox<Int>(capacity: 1)
        await inbox.post(1)
        let poster = Task { await inbox.post(2) }
        try? await Task.sleep(for: .milliseconds(50))
        inbox.close()
        await poster.value
        await inbox.post(3)
        #expect(inbox.take(until: .now) == 1)
        #expect(inbox.take(until: .now) == nil)
    }
}
