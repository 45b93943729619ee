@testable import TetherModel

/// Drives a ``Session`` with explicit times (ms from the start) and records every
/// event and write, for the dialect and case tests.
struct SessionHarness {
    let start = ContinuousClock.now
    var session: Session
    private(set) var events: [SessionEvent] = []
    private(set) var writes: [[UInt8]] = []

    init(_ dialect: any Dialect, maximumLineLength: Int = LineFramer.defaultMaximumLineLength) {
        session = Session(dialect: dialect, maximumLineLength: maximumLineLength)
    }

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    @discardableResult
    mutating func enqueue(_ command: String, timeout milliseconds: Int? = 1000, at time: Int = 0) -> RequestID {
        let (id, actions) = session.enqueue(command, timeout: milliseconds.map { .milliseconds($0) }, now: at(time))
        record(actions)
        return id
    }

    mutating func receive(_ text: String, at time: Int) { receive(Array(text.utf8), at: time) }

    mutating func receive(_ bytes: [UInt8], at time: Int) { record(session.receive(bytes, now: at(time))) }

    /// Feeds `text` one byte per read, all at `time`.
    mutating func receiveBytewise(_ text: String, at time: Int) {
        for byte in text.utf8 { receive([byte], at: time) }
    }

    mutating func expire(at time: Int) { record(session.expire(now: at(time))) }

    /// The device is closed (``Session/hangUp(reason:isAskedFor:now:)``, asked for).
    mutating func close(at time: Int) { record(session.hangUp(reason: "closed", isAskedFor: true, now: at(time))) }

    /// Ends ``Session/holdRequests()`` (``Session/releaseRequests(now:)``).
    mutating func release(at time: Int) { record(session.releaseRequests(now: at(time))) }

    /// Ends ``Session/holdRequests()`` (``Session/releaseRequests(endingWaitingText:now:)``).
    mutating func releaseRequests(endingWaitingText: Bool, at time: Int) {
        record(session.releaseRequests(endingWaitingText: endingWaitingText, now: at(time)))
    }

    /// Consumes pending text (``Session/consumePendingText(start:count:now:)``);
    /// whether it was still pending.
    @discardableResult
    mutating func consumePendingText(start: Int, count: Int, at time: Int) -> Bool {
        guard let actions = session.consumePendingText(start: start, count: count, now: at(time)) else { return false }
        record(actions)
        return true
    }

    private mutating func record(_ actions: [SessionAction]) {
        for action in actions {
            switch action {
            case .write(let bytes): writes.append(bytes)
            case .emit(let event): events.append(event)
            }
        }
    }

    /// Every reply, in order: the command and the reply.
    var replies: [(command: String, reply: Reply)] {
        events.compactMap { if case .replied(_, let command, let reply, _) = $0 { (command, reply) } else { nil } }
    }

    /// The reply lines of every reply, as text, in order.
    var replyLines: [[String]] { replies.map { $0.reply.lines.map(\.text) } }

    /// Every notification line, in order.
    var notifications: [Line] {
        events.compactMap { if case .notification(let line) = $0 { line } else { nil } }
    }

    /// The text of every notification, in order.
    var notificationTexts: [String] { notifications.map(\.text) }

    /// Every late reply, in order.
    var lateReplies: [(command: String, reply: Reply)] {
        events.compactMap { if case .lateReply(let command, let reply) = $0 { (command, reply) } else { nil } }
    }

    /// The commands that timed out, in order.
    var timedOut: [String] {
        events.compactMap {
            if case .failed(_, let command, .timedOut) = $0 { command } else { nil }
        }
    }

    /// All bytes written, as text.
    var writtenText: String { String(decoding: writes.flatMap { $0 }, as: UTF8.self) }
}
