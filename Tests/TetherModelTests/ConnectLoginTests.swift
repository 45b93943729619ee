import Testing
import TetherModel

/// `connect` (line mode) on a board's login console, as a trial typed it: `root` at
/// `qemux86 login:  [unterminated]`, `secret` at `Password: `, `uname` at the shell.
@Suite struct ConnectLoginTests {
    static let banner = "\r\nPoky (Yocto) 4.0 qemux86 ttyS0\r\n\r\nqemux86 login: "

    /// A session as `connect` runs it, driven by milliseconds from `start`.
    struct Typing {
        var session = Session(dialect: LineDialect())
        let start = ContinuousClock.now
        var events: [SessionEvent] = []

        mutating func record(_ actions: [SessionAction]) {
            for case .emit(let event) in actions { events.append(event) }
        }
        mutating func receive(_ text: String, at ms: Int) {
            record(session.receive(Array(text.utf8), now: start + .milliseconds(ms)))
            record(session.expire(now: start + .milliseconds(ms + 100)))
        }
        /// Types `command` at the prompt shown, as ``Device/sendAtShownPrompt(_:timeout:)``.
        ///
        /// - Returns: when it was sent (after a settling reply), in ms.
        @discardableResult
        mutating func type(_ command: String, at ms: Int, consuming: Bool = true) -> Int {
            var now = ms
            if consuming { record(session.consumeShownPendingText(now: start + .milliseconds(now))) }
            record(session.enqueue(command, timeout: .seconds(1), now: start + .milliseconds(now)).1)
            while !events.contains(where: { if case .sent(_, command, _, _) = $0 { true } else { false } }) {
                now += 5
                record(session.expire(now: start + .milliseconds(now)))
            }
            return now
        }
        var replies: [String] {
            events.compactMap {
                guard case .replied(_, let command, let reply, _) = $0 else { return nil }
                return "\(command) → \(reply.lines.map(\.text).joined(separator: "|"))"
            }
        }
        var notifications: [String] {
            events.compactMap { if case .notification(let line) = $0 { line.text } else { nil } }
        }
    }

    /// The trial saw `root → qemux86 login: root` when `connect` wrapped the device's
    /// dialect and lost its rule that a line begun before the command is no reply;
    /// `connect` now sends with the device's own dialect (its keystrokes are raw writes).
    @Test func lineBegunBeforeTheCommandIsNoReply() {
        var typing = Typing()
        typing.receive(Self.banner, at: 0)
        typing.type("root", at: 500, consuming: false)
        typing.receive("root\r\nPassword: ", at: 570)
        #expect(typing.replies.isEmpty)
        // The banner's blank lines are framing (`BlankLineTests`).
        #expect(typing.notifications == ["Poky (Yocto) 4.0 qemux86 ttyS0", "qemux86 login: root"])
    }

    /// Typing at a shown prompt answers it: the prompt is consumed, so the echo is
    /// dropped, the command before is over (no reply), and `uname` gets `Linux`, not
    /// `root@qemux86:~# uname`.
    @Test func typingAtTheShownPromptConsumesIt() {
        var typing = Typing()
        typing.receive(Self.banner, at: 0)
        typing.receive("root\r\nPassword: ", at: typing.type("root", at: 500) + 10)
        typing.receive("\r\nroot@qemux86:~# ", at: typing.type("secret", at: 1000) + 10)
        typing.receive("uname\r\nLinux\r\nroot@qemux86:~# ", at: typing.type("uname", at: 1500) + 10)
        typing.record(typing.session.expire(now: typing.start + .seconds(3)))
        #expect(typing.replies == ["root → ", "secret → ", "uname → Linux"])
        #expect(typing.notifications == ["Poky (Yocto) 4.0 qemux86 ttyS0"])
    }
}
