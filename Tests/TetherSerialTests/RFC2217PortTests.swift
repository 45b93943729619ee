import Foundation
import Glibc
import Synchronization
import Testing
import TetherModel

@testable import TetherSerial

/// RFC2217Port against a scripted server on loopback.
struct RFC2217PortTests {
    /// tether's opening: WILL/DO BINARY and SUPPRESS-GO-AHEAD, WILL COM-PORT-OPTION.
    static let opening: [UInt8] = [255, 251, 0, 255, 251, 3, 255, 251, 44, 255, 253, 0, 255, 253, 3]

    /// Opens a port on another thread while the test plays the server.
    static func open(
        _ server: LoopbackServer, setup: PortSetup, serve: () -> Void
    ) throws -> RFC2217Port {
        let result = Mutex<Result<RFC2217Port, SerialError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let port = server.port
        Thread.detachNewThread {
            let opened = Result { () throws(SerialError) in
                try RFC2217Port.open("rfc2217://127.0.0.1:\(port)", host: "127.0.0.1", port: port, setup: setup)
            }
            result.withLock { $0 = opened }
            done.signal()
        }
        server.accept()
        serve()
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// Answers the opening and the settings as ser2net does (the baud rate as
    /// `appliedBaud`).
    static func accept(_ server: LoopbackServer, appliedBaud: [UInt8] = [0, 0, 0x25, 0x80]) {
        #expect(server.read(opening.count) == opening)
        server.write([255, 253, 44, 255, 251, 0, 255, 251, 3, 255, 253, 0, 255, 253, 3])
        // Masks (7 bytes, and 8 for the modem state's 0xFF doubled), baud (10), data size,
        // parity, stop size, control (7 each).
        let settings = server.read(15 + 10 + 4 * 7)
        #expect(
            Array(settings[0..<15]) == [255, 250, 44, 10, 0x1E, 255, 240, 255, 250, 44, 11, 255, 255, 255, 240],
            "break, framing, parity and overrun asked for; every modem state bit")
        #expect(Array(settings[15..<25]) == [255, 250, 44, 1, 0, 0, 0x25, 0x80, 255, 240])
        server.write(
            [255, 250, 44, 101] + appliedBaud + [255, 240] + [255, 250, 44, 102, 8, 255, 240]
                + [255, 250, 44, 103, 1, 255, 240] + [255, 250, 44, 104, 1, 255, 240]
                + [255, 250, 44, 105, 1, 255, 240])
    }

    @Test func settingsAreSentAndConfirmedDuringTheOpen() throws {
        let server = try LoopbackServer()
        let port = try Self.open(server, setup: .init(configuration: .init(baudRate: 9600))) {
            Self.accept(server)
        }
        defer { port.close() }
        #expect(port.controlsPort)
        #expect(port.settingsReport == SettingsReport(actual: .init(baudRate: 9600)))
    }

    /// The server's answers are the port's settings: a baud rate it set otherwise is a
    /// mismatch, and the port shows the rate it has.
    @Test func aBaudRateTheServerDidNotApplyIsAMismatch() throws {
        let server = try LoopbackServer()
        let port = try Self.open(server, setup: .init(configuration: .init(baudRate: 9600))) {
            Self.accept(server, appliedBaud: [0, 0, 0x4B, 0])
        }
        defer { port.close() }
        #expect(
            port.settingsReport
                == SettingsReport(
                    actual: .init(baudRate: 19200),
                    mismatches: [SettingMismatch(setting: "baud rate", requested: "9600", actual: "19200")]))
    }

    /// Parity and flow control are read from the answers too; a stop size of 1.5 and
    /// a setting left unanswered are named.
    @Test func theServersAnswersForEverySettingAreRead() throws {
        let server = try LoopbackServer()
        let asked = SerialConfiguration(baudRate: 9600, parity: .even, flowControl: .rtsCts)
        let port = try Self.open(server, setup: .init(configuration: asked)) {
            #expect(server.read(Self.opening.count) == Self.opening)
            server.write([255, 253, 44, 255, 251, 0, 255, 251, 3, 255, 253, 0, 255, 253, 3])
            _ = server.read(15 + 10 + 4 * 7)
            // Baud 9600, no data size answer, parity none (1), stop size 1.5 (3), no flow control (1).
            server.write(
                [255, 250, 44, 101, 0, 0, 0x25, 0x80, 255, 240] + [255, 250, 44, 103, 1, 255, 240]
                    + [255, 250, 44, 104, 3, 255, 240] + [255, 250, 44, 105, 1, 255, 240])
        }
        defer { port.close() }
        #expect(
            port.settingsReport.mismatches == [
                SettingMismatch(setting: "parity", requested: "even", actual: "none"),
                SettingMismatch(setting: "flow control", requested: "RTS/CTS", actual: "none"),
                SettingMismatch(setting: "data bits", requested: "8", actual: "not confirmed"),
                SettingMismatch(setting: "stop bits", requested: "1", actual: "1.5"),
            ])
        #expect(port.settingsReport.actual?.summary == "9600 8N1")
    }

    /// A readable socket that holds only a notification is not the end of the stream:
    /// receive says "nothing received", and the data after it comes through with 0xFF
    /// undoubled; 0xFF sent is doubled.
    @Test func aReadThatHoldsOnlyTelnetCommandsIsNothingReceived() throws {
        let server = try LoopbackServer()
        let port = try Self.open(server, setup: .init(configuration: .init(baudRate: 9600))) {
            Self.accept(server)
        }
        defer { port.close() }
        var buffer = [UInt8](repeating: 0, count: 64)
        server.write([255, 250, 44, 107, 0x30, 255, 240])
        var entry = pollfd(fd: port.descriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&entry, 1, 10_000) == 1)
        let nothing = try buffer.withMutableBytes { (bytes) throws(SerialError) in try port.receive(into: bytes) }
        #expect(nothing == RFC2217Port.nothingReceived)

        server.write([0x4F, 255, 255, 0x4B])
        #expect(poll(&entry, 1, 10_000) == 1)
        let count = try buffer.withMutableBytes { (bytes) throws(SerialError) in try port.receive(into: bytes) }
        #expect(Array(buffer[..<count]) == [0x4F, 255, 0x4B])

        let sent = try [255, 0x0A].withBytes { (bytes) throws(SerialError) in try port.transmit(bytes) }
        #expect(sent == 2)
        #expect(server.read(3) == [255, 255, 0x0A])

        server.closeConnection()
        #expect(poll(&entry, 1, 10_000) == 1)
        let end = try buffer.withMutableBytes { (bytes) throws(SerialError) in try port.receive(into: bytes) }
        #expect(end == 0)
    }

    /// After `SET-BAUDRATE` the report has the new rate (connect's `c` shows it): it kept
    /// the rate of the open.
    @Test func aBaudRateChangeIsInTheReport() throws {
        let server = try LoopbackServer()
        let port = try Self.open(server, setup: .init(configuration: .init(baudRate: 9600))) {
            Self.accept(server)
        }
        defer { port.close() }
        let result = Mutex<Result<Void, SerialError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let changed = Result { () throws(SerialError) in try port.setBaudRate(57600) }
            result.withLock { $0 = changed }
            done.signal()
        }
        #expect(server.read(10) == [255, 250, 44, 1, 0, 0, 0xE1, 0, 255, 240])
        server.write([255, 250, 44, 101, 0, 0, 0xE1, 0, 255, 240])
        done.wait()
        try result.withLock { $0! }.get()
        #expect(port.settingsReport.actual == SerialConfiguration(baudRate: 57600))
    }

    /// The modem lines: DTR and RTS from the SET-CONTROL answers, CTS, DSR, DCD and RI
    /// from NOTIFY-MODEMSTATE (0x90: DCD and CTS).
    @Test func modemLinesAreReadFromTheServersAnswers() throws {
        let server = try LoopbackServer()
        let port = try Self.open(server, setup: .init(configuration: .init(baudRate: 9600))) {
            Self.accept(server)
        }
        defer { port.close() }
        let result = Mutex<Result<ModemLines, SerialError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let lines = Result { () throws(SerialError) in try port.modemLines() }
            result.withLock { $0 = lines }
            done.signal()
        }
        #expect(
            server.read(8 + 7 + 7)
                == [255, 250, 44, 11, 255, 255, 255, 240, 255, 250, 44, 5, 7, 255, 240, 255, 250, 44, 5, 10, 255, 240])
        server.write(
            [255, 250, 44, 107, 0x90, 255, 240, 255, 250, 44, 105, 8, 255, 240, 255, 250, 44, 105, 12, 255, 240])
        #expect(server.read(8) == [255, 250, 44, 11, 255, 255, 255, 240], "the modem state mask as at the open")
        done.wait()
        #expect(try result.withLock { $0! }.get() == [.dtr, .cts, .dcd])
    }

    /// A banner that arrives while the open waits for the server's answers (ser2net
    /// opens the device when the client connects) is the input waiting at open: a
    /// notification, never the reply to the first command. It used to be handed out
    /// only with the next socket data, the reply, and taken as that reply.
    @Test func aBannerReadDuringTheOpenIsANotificationNotTheFirstReply() async throws {
        let server = try LoopbackServer()
        let port = try Self.open(server, setup: .init(configuration: .init(baudRate: 9600))) {
            #expect(server.read(Self.opening.count) == Self.opening)
            server.write([255, 253, 44] + [0x42, 0x4F, 0x4F, 0x54, 255, 255, 0x0D, 0x0A])
            _ = server.read(15 + 10 + 4 * 7)
            server.write(
                [255, 250, 44, 101, 0, 0, 0x25, 0x80, 255, 240, 255, 250, 44, 102, 8, 255, 240]
                    + [255, 250, 44, 103, 1, 255, 240, 255, 250, 44, 104, 1, 255, 240]
                    + [255, 250, 44, 105, 1, 255, 240])
        }
        #expect(port.descriptor != port.connection.descriptor, "the kept banner makes the port readable")
        let device = try Device(transport: port, dialect: LineDialect(), settings: "9600 8N1")
        let events = device.events(.lossless)
        await device.start()
        let query = Task { try await device.query("PING", timeout: .seconds(10)) }
        // The server's blocking read runs on a thread of its own: on Swift's pool it could
        // take the last free thread that the query's task needs to send PING.
        let received = await withCheckedContinuation { (read: CheckedContinuation<[UInt8], Never>) in
            Thread.detachNewThread {
                let bytes = server.read(5)
                server.write(Array("PONG\r\n".utf8))
                read.resume(returning: bytes)
            }
        }
        #expect(received == Array("PING\n".utf8))
        #expect(try await query.value.lines.map(\.text) == ["PONG"])
        #expect(port.descriptor == port.connection.descriptor)
        await device.close()
        var notifications: [[UInt8]] = []
        for await event in events {
            if case .session(.notification(let line)) = event.kind { notifications.append(line.bytes) }
        }
        #expect(notifications == [[0x42, 0x4F, 0x4F, 0x54, 0xFF]])
    }

    @Test func aServerThatRefusesIsAWarningAndTheLineCarriesOnRaw() throws {
        let server = try LoopbackServer()
        let port = try Self.open(server, setup: .init(configuration: .init(baudRate: 9600))) {
            _ = server.read(Self.opening.count)
            server.write([255, 254, 0, 255, 254, 3, 255, 254, 44, 255, 252, 0, 255, 252, 3])
        }
        defer { port.close() }
        #expect(!port.controlsPort)
        #expect(port.settingsReport.actual == nil)
        #expect(
            port.settingsReport.warnings == [
                "rfc2217://127.0.0.1:\(server.port): the server refused RFC 2217 serial port control "
                    + "(COM-PORT-OPTION); carrying on with raw data at the server's serial settings"
            ])
    }

    /// Reads from `port` until `count` bytes came (or the stream ended or failed).
    static func receive(_ count: Int, from port: RFC2217Port) -> (bytes: [UInt8], error: SerialError?) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while received.count < count {
            var entry = pollfd(fd: port.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 10_000) == 1 else { break }
            do throws(SerialError) {
                let got = try buffer.withMutableBytes { (bytes) throws(SerialError) in try port.receive(into: bytes) }
                if got == 0 { break }
                if got > 0 { received += buffer[..<got] }
            } catch {
                return (received, error)
            }
        }
        return (received, nil)
    }

    /// A server that floods data from its first byte drove the open to 771 MiB in 2 s:
    /// everything read during negotiation was kept. The open reads at most 64 KiB
    /// ahead (then treats the server as silent), and no byte is lost: the rest waits in
    /// the socket for the port loop.
    @Test func aServerFloodingDataDuringTheOpenIsReadAheadOnlyUpToTheBound() throws {
        let server = try LoopbackServer()
        let flood = (0..<(2 << 20)).map { UInt8($0 % 251) }
        let port = try Self.open(server, setup: .init(configuration: .init(baudRate: 9600))) {
            Thread.detachNewThread {
                for start in stride(from: 0, to: flood.count, by: 65536) {
                    server.write(Array(flood[start..<min(start + 65536, flood.count)]))
                }
            }
        }
        defer { port.close() }
        let early = port.receiving.withLock { $0.early.count }
        #expect(early >= RFC2217Port.maximumEarlyData && early <= RFC2217Port.maximumEarlyData + 4096)
        #expect(!port.controlsPort)
        let (received, error) = Self.receive(flood.count, from: port)
        #expect(error == nil)
        #expect(received.count == flood.count)
        #expect(received == flood, "bytes lost or reordered")
    }

    /// An unterminated subnegotiation after the open: the data before it is read, then
    /// the read fails naming the problem (the port loop reports a disconnect).
    @Test func anUnterminatedSubnegotiationEndsTheConnectionWithItsReason() throws {
        let server = try LoopbackServer()
        let port = try Self.open(server, setup: .init(configuration: .init(baudRate: 9600))) {
            Self.accept(server)
        }
        defer { port.close() }
        server.write([0x4F, 0x4B, 255, 250, 44] + [UInt8](repeating: 0x41, count: 5000))
        let (received, error) = Self.receive(10_000, from: port)
        #expect(received.starts(with: [0x4F, 0x4B]))
        #expect(received.count <= 2 + 5000 - (TelnetDecoder.maximumSubnegotiationLength - 1))
        #expect(
            error?.description.contains(
                "the server's telnet subnegotiation of option 44 ran past 4096 bytes without IAC SE") == true,
            "\(String(describing: error))")
    }
}

/// The server's NOTIFY-LINESTATE and NOTIFY-MODEMSTATE as line events (a scripted
/// server: ser2net exporting a pty never sees a break, a framing error or a modem line
/// change there — `RemoteLineEventEndToEndTests` checks that it takes the masks).
@Suite struct RFC2217LineEventTests {
    @Test func notificationsAreLineEventsAfterTheirReadsData() throws {
        let server = try LoopbackServer()
        let port = try RFC2217PortTests.open(server, setup: .init(configuration: .init(baudRate: 9600))) {
            RFC2217PortTests.accept(server)
        }
        defer { port.close() }
        // Data, a break and a framing error, data; then DCD dropping (its delta bit).
        server.write(
            [0x41] + [255, 250, 44, 106, 0x18, 255, 240] + [0x42] + [255, 250, 44, 107, 0x30, 255, 240]
                + [255, 250, 44, 107, 0x38, 255, 240])
        var received: [UInt8] = []
        var events: [PlacedLineEvent] = []
        // A read of notifications alone is nothing received: the helper reads on until
        // data or its timeout; the events wait to be taken.
        while case .data(let bytes) = try port.read(maxBytes: 64, timeout: 1000) {
            received += bytes
            events += port.takeLineEvents()
        }
        events += port.takeLineEvents()
        #expect(received == [0x41, 0x42])
        #expect(
            events.map(\.event) == [
                .lineBreak, .framingError(byte: nil), .modemLines([.cts, .dsr], changed: .dcd),
            ])
    }
}
