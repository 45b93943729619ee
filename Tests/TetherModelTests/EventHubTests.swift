import Testing

@testable import TetherModel

@Suite struct EventHubTests {
    enum Event: Sendable, Equatable {
        case value(Int)
        case missed(Int)
    }

    @Test func everyObserverGetsEveryEventInOrder() async {
        let hub = EventHub<Event> { .missed($0) }
        let first = hub.subscribe()
        let second = hub.subscribe()
        for value in 1...5 { hub.publish(.value(value)) }
        hub.finish()
        let expected = (1...5).map(Event.value)
        #expect(await Array(first) == expected)
        #expect(await Array(second) == expected)
    }

    /// A slow observer is told how many events it missed; it never loses them silently.
    @Test func slowObserverIsToldWhatItMissed() async {
        let hub = EventHub<Event> { .missed($0) }
        let slow = hub.subscribe(bufferLimit: 3)
        for value in 1...10 { hub.publish(.value(value)) }
        var iterator = slow.makeAsyncIterator()
        var seen: [Event] = []
        for _ in 0..<3 { if let event = await iterator.next() { seen.append(event) } }
        hub.publish(.value(11))
        hub.finish()
        while let event = await iterator.next() { seen.append(event) }
        #expect(seen == [.value(1), .value(2), .value(3), .missed(7), .value(11)])
    }

    @Test func observersCanDetach() async {
        let hub = EventHub<Event> { .missed($0) }
        do {
            let stream = hub.subscribe()
            _ = stream
        }
        let kept = hub.subscribe()
        hub.publish(.value(1))
        hub.finish()
        #expect(await Array(kept) == [.value(1)])
    }
}

extension Array {
    init<S: AsyncSequence>(_ sequence: S) async where S.Element == Element, S.Failure == Never {
        self = []
        for await element in sequence { append(element) }
    }
}
