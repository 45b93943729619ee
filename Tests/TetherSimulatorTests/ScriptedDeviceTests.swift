import Foundation
import Testing

@testable import TetherSimulator

@Suite struct ScriptedDeviceTests {
    let now = ContinuousClock.now

    @Test func turnsChunkDelaysIntoDelaysFromTheTriggerAndAppendsTheHangUp() {
        let device = ScriptedDevice(rules: [
            .init(
                on: "AT+CSQ\r",
                send: [
                    .init("\r\n+CSQ: 2"), .init("3,99\r\n", after: .milliseconds(150)),
                    .init("\r\nOK\r\n", after: .milliseconds(150)),
                ],
                hangUpAfter: .milliseconds(300))
        ])
        #expect(
            device.receive(Array("AT+CSQ\r".utf8), at: now) == [
                .send("\r\n+CSQ: 2"), .send("3,99\r\n", after: .milliseconds(150)),
                .send("\r\nOK\r\n", after: .milliseconds(300)), .hangUp(after: .milliseconds(600)),
            ])
    }

    @Test func firesWhenATriggerArrivesByteByByte() {
        let device = ScriptedDevice(rules: [.init(on: "dump\r", send: [.init("x")])])
        let bytes = Array("dump\r".utf8)
        for byte in bytes.dropLast() {
            #expect(device.receive([byte], at: now).isEmpty)
        }
        #expect(device.receive([bytes.last!], at: now) == [.send("x")])
    }

    @Test func firesOncePerCommandWhenSeveralArriveInOneRead() {
        let device = ScriptedDevice(rules: [
            .init(on: "READ\n", send: [.init("V=1\n")]),
            .init(on: "ID?\n", send: [.init("AB\u{0}CD\r\n")]),
        ])
        #expect(
            device.receive(Array("noise READ\nID?\nREAD\n".utf8), at: now) == [
                .send("V=1\n"), .send("AB\u{0}CD\r\n"), .send("V=1\n"),
            ])
        #expect(device.receive(Array("EAD\n".utf8), at: now).isEmpty)
    }

    @Test func keepsOnlyWhatCanStillStartATrigger() {
        let device = ScriptedDevice(rules: [.init(on: "M20\n", send: [.init("ok\r\n")])])
        #expect(
            device.receive(Array(repeating: 0x41, count: 100_000) + Array("M2".utf8), at: now)
                .isEmpty)
        #expect(device.receive(Array("0\n".utf8), at: now) == [.send("ok\r\n")])
    }

    @Test func sendsTheOpeningChunksOnEveryConnect() {
        let device = ScriptedDevice(onOpen: [
            .init([0x99, 0xF8, 0xE0, 0x00, 0x1C, 0xFE]),
            .init("start\r\n", after: .milliseconds(200)),
        ])
        let expected: [DeviceOutput] = [
            .send([0x99, 0xF8, 0xE0, 0x00, 0x1C, 0xFE]),
            .send("start\r\n", after: .milliseconds(200)),
        ]
        #expect(device.clientDidConnect(at: now) == expected)
        device.clientDidDisconnect(at: now)
        #expect(device.clientDidConnect(at: now) == expected)
    }

    @Test func replaysChunksWithTheirDelaysThroughAPty() throws {
        let simulator = try Simulator(
            device: ScriptedDevice(rules: [
                .init(
                    on: "AT+CSQ\r",
                    send: [
                        .init("\r\n+CSQ: 2"), .init("3,99\r\n", after: .milliseconds(150)),
                        .init("\r\nOK\r\n", after: .milliseconds(150)),
                    ])
            ]))
        let client = try PtyClient(path: simulator.devicePath)
        #expect(eventually { simulator.isClientConnected })
        let sent = ContinuousClock.now
        client.send("AT+CSQ\r")
        #expect(client.readLine() == "")
        #expect(client.readLine() == "+CSQ: 23,99")
        let informationLine = ContinuousClock.now - sent
        #expect(client.readLine() == "")
        #expect(client.readLine() == "OK")
        let finalResult = ContinuousClock.now - sent
        #expect(informationLine >= .milliseconds(150))
        #expect(finalResult >= .milliseconds(300))
        #expect(finalResult < .seconds(5))
        #expect(simulator.received == Array("AT+CSQ\r".utf8))
    }

    @Test func sendsOnOpenThenHangsUpAfterTheLastChunk() throws {
        let simulator = try Simulator(
            device: ScriptedDevice(
                onOpen: [.init("\u{0}Ready\r\n", after: .milliseconds(100))],
                rules: [
                    .init(
                        on: "dump\r", send: [.init("line1\r\nline2\r\nBlorp")],
                        hangUpAfter: .milliseconds(300))
                ]))
        let client = try PtyClient(path: simulator.devicePath)
        #expect(client.readLine() == "\u{0}Ready")
        let sent = ContinuousClock.now
        client.send("dump\r")
        let beforeHangUp = client.readUntilHangUp()
        let elapsed = ContinuousClock.now - sent
        #expect(beforeHangUp == Array("line1\r\nline2\r\nBlorp".utf8))
        #expect(elapsed >= .milliseconds(300))
        #expect(eventually { !simulator.isRunning })
    }

    /// A client that sets raw mode 60 ms after its `open` (more than the simulator's
    /// 10 ms look for clients, less than its ``ServeLoop/rawModeGrace``): a banner written in between went into the cooked slave and
    /// its `ECHO` sent it back to the device, which answered its own banner.
    @Test func theOpeningChunksWaitForTheClientsRawMode() throws {
        let simulator = try Simulator(
            device: ScriptedDevice(
                onOpen: [.init("U-Boot 2024.01\r\n")], rules: [.init(on: "U-Boot", send: [.init("echoed\r\n")])]))
        let fd = open(simulator.devicePath, O_RDWR | O_NOCTTY | O_NONBLOCK)
        try #require(fd >= 0)
        defer { close(fd) }
        let opened = ContinuousClock.now
        usleep(60_000)
        var attributes = termios()
        tcgetattr(fd, &attributes)
        cfmakeraw(&attributes)
        tcsetattr(fd, TCSANOW, &attributes)
        // A loaded machine may keep this thread from running past the grace: then the
        // simulator rightly took the client as it is, and only the banner is checked.
        let keptWithinGrace = ContinuousClock.now - opened < ServeLoop.rawModeGrace - .milliseconds(50)
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + .milliseconds(800)
        var buffer = [UInt8](repeating: 0, count: 256)
        while ContinuousClock.now < deadline {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 { received += buffer[0..<count] } else { usleep(5_000) }
        }
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.hasPrefix("U-Boot 2024.01\r\n"))
        if keptWithinGrace { #expect(text == "U-Boot 2024.01\r\n") }
    }
}
