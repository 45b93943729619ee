import Foundation
import Glibc
import Testing

/// Input already waiting when tether opens the port — a boot banner, or an answer
/// another program left unread — is a notification, never the reply to the first
/// command. Found in a first-time user's trial: `query PORT '*IDN?' X` printed
/// `*IDN? → BOOT v1.0 ready`.
@Suite struct PendingInputEndToEndTests {
    /// Runs `tether query <pty> arguments…` on a raw pseudo-terminal holding `waiting`
    /// before tether opens it; once the device side has read `command`, writes `answer`.
    ///
    /// - Returns: the query's result and its JSON records.
    func query(
        waiting: String, _ arguments: [String], reading command: String, answer: String
    ) throws -> (Subprocess.Result, [[String: Any]]) {
        var master: Int32 = 0
        var slave: Int32 = 0
        var name = [CChar](repeating: 0, count: 64)
        try #require(openpty(&master, &slave, &name, nil, nil) == 0)
        defer { close(master) }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var raw = termios()
        tcgetattr(slave, &raw)
        cfmakeraw(&raw)
        tcsetattr(slave, TCSANOW, &raw)
        let banner = Array(waiting.utf8)
        #expect(write(master, banner, banner.count) == banner.count)
        close(slave)

        let query = try Subprocess("tether", ["query", path, "--format", "json", "--timeout", "5000"] + arguments)
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(20)
        while !String(decoding: received, as: UTF8.self).contains(command), Date() < deadline {
            var pollfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&pollfd, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(master, &buffer, buffer.count)
            if count > 0 { received += buffer[..<count] }
        }
        let reply = Array(answer.utf8)
        #expect(write(master, reply, reply.count) == reply.count)
        let result = query.wait(timeout: 30)
        return (result, try JSONLines.parse(result.stdout))
    }

    func notifications(_ records: [[String: Any]]) -> [String] {
        records.filter { $0["type"] as? String == "notification" }.compactMap { $0["line"] as? String }
    }

    @Test func bannerWaitingAtOpenIsNotTheFirstReply() throws {
        let (result, records) = try query(
            waiting: "BOOT v1.0 ready\r\n", ["*IDN?"], reading: "*IDN?\n", answer: "ACME,X,1,2\r\n")
        #expect(result.status == 0, "\(result.stderr)")
        let reply = try #require(records.first { $0["type"] as? String == "reply" })
        #expect(reply["lines"] as? [String] == ["ACME,X,1,2"])
        #expect(notifications(records) == ["BOOT v1.0 ready"])
    }

    /// Another program left `sion` unread, with no line end: it is a notification of its
    /// own, and `sleep 2`'s echo is recognised (its reply is empty, not `sionsleep 2`).
    @Test func textWithoutALineEndWaitingAtOpenIsItsOwnNotification() throws {
        let (result, records) = try query(
            waiting: "sion", ["--dialect", "prompt", "sleep 2"], reading: "sleep 2\r", answer: "sleep 2\r\n=> ")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(notifications(records) == ["sion"])
        let reply = try #require(records.first { $0["type"] as? String == "reply" })
        #expect(reply["lines"] as? [String] == [])
    }

    /// `--discard-input` drops it unread, as pyserial's `reset_input_buffer()` does.
    @Test func discardInputDropsWhatWasWaiting() throws {
        let (result, records) = try query(
            waiting: "BOOT v1.0 ready\r\nsion", ["--dialect", "prompt", "--discard-input", "sleep 2"],
            reading: "sleep 2\r", answer: "sleep 2\r\n=> ")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(notifications(records).isEmpty)
        let reply = try #require(records.first { $0["type"] as? String == "reply" })
        #expect(reply["lines"] as? [String] == [])
    }
}
