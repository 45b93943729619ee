import Foundation
import Glibc
import Testing

/// Input already waiting when tether opens the port — a boot banner, or an answer
/// another program left unread — is a notification, never the reply to the first
/// command. Found in a first-time user's trial: `query PORT '*IDN?' X` printed
/// `*IDN? → BOOT v1.0 ready`.
@Suite struct PendingInputEndToEndTests {
    @Test func bannerWaitingAtOpenIsNotTheFirstReply() throws {
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
        let banner = Array("BOOT v1.0 ready\r\n".utf8)
        #expect(write(master, banner, banner.count) == banner.count)
        close(slave)

        let query = try Subprocess("tether", ["query", path, "--format", "json", "--timeout", "5000", "*IDN?"])
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(20)
        while !String(decoding: received, as: UTF8.self).contains("*IDN?\n"), Date() < deadline {
            var pollfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&pollfd, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(master, &buffer, buffer.count)
            if count > 0 { received += buffer[..<count] }
        }
        let answer = Array("ACME,X,1,2\r\n".utf8)
        #expect(write(master, answer, answer.count) == answer.count)
        let result = query.wait(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try JSONLines.parse(result.stdout)
        let reply = try #require(objects.first { $0["type"] as? String == "reply" })
        #expect(reply["lines"] as? [String] == ["ACME,X,1,2"])
        let notifications = objects.filter { $0["type"] as? String == "notification" }.compactMap {
            $0["line"] as? String
        }
        #expect(notifications == ["BOOT v1.0 ready"])
    }
}
