import Testing

@testable import TetherSerial

struct TelnetWriterTests {
    /// A socket that takes at most the given number of bytes per write (the last
    /// repeated), recording the stream.
    final class Socket {
        var capacities: [Int]
        var stream: [UInt8] = []

        init(_ capacities: [Int]) { self.capacities = capacities }

        func write(_ bytes: UnsafeRawBufferPointer) -> Int {
            let capacity = capacities.count > 1 ? capacities.removeFirst() : capacities[0]
            let taken = min(capacity, bytes.count)
            stream += bytes.prefix(taken)
            return taken
        }
    }

    /// Sends `data` as the port loop does: what was not taken is offered again.
    static func send(_ data: [UInt8], through socket: Socket, writer: inout TelnetWriter) throws -> Int {
        var sent = 0
        var calls = 0
        while sent < data.count, calls < 100 {
            calls += 1
            sent += try Array(data[sent...]).withBytes { (bytes) throws(SerialError) in
                try writer.transmit(bytes) { socket.write($0) }
            }
        }
        return sent
    }

    @Test func doublesEveryIAC() throws {
        var writer = TelnetWriter()
        let socket = Socket([1000])
        #expect(try Self.send([65, 255, 66, 255, 255], through: socket, writer: &writer) == 5)
        #expect(socket.stream == [65, 255, 255, 66, 255, 255, 255, 255])
    }

    /// The socket takes the first half of an `IAC IAC` pair: the byte is not counted,
    /// the half-sent IAC becomes `IAC NOP`, and the 0xFF goes again whole.
    @Test func aPairSplitByAFullSocketIsCompletedWithNOPAndSentAgain() throws {
        var writer = TelnetWriter()
        let socket = Socket([2, 0, 1, 1000])
        #expect(try Self.send([65, 255, 66], through: socket, writer: &writer) == 3)
        #expect(socket.stream == [65, 255, 241, 255, 255, 66])
        var decoder = TelnetDecoder()
        var commands: [TelnetDecoder.Command] = []
        var stream = socket.stream
        let count = stream.count
        let kept = stream.withUnsafeMutableBytes { decoder.decode($0, count: count, commands: &commands) }
        #expect(Array(stream[..<kept]) == [65, 255, 66])
        #expect(commands == [.other(241)])
    }

    @Test func queuedCommandsGoBeforeTheNextDataAndNeverInsideAPair() throws {
        var writer = TelnetWriter()
        let socket = Socket([2, 1000])
        _ = try [65, 255].withBytes { (bytes) throws(SerialError) in try writer.transmit(bytes) { socket.write($0) } }
        writer.queue(command: [255, 252, 1])
        #expect(try writer.flushCommands { socket.write($0) })
        #expect(socket.stream == [65, 255, 241, 255, 252, 1])
    }
}
