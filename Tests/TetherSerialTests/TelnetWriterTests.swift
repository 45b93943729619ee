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
    /// and when it is offered again the second 0xFF completes the pair.
    @Test func aPairSplitByAFullSocketIsCompletedWhenTheByteIsOfferedAgain() throws {
        var writer = TelnetWriter()
        let socket = Socket([2, 0, 1, 1000])
        #expect(try Self.send([65, 255, 66], through: socket, writer: &writer) == 3)
        #expect(socket.stream == [65, 255, 255, 66])
        #expect(Self.decoded(socket.stream) == ([65, 255, 66], []))
    }

    /// Other data after a split pair: the half-sent IAC becomes `IAC NOP`, and the
    /// 0xFF is sent again whole later.
    @Test func otherDataAfterASplitPairGetsANOPFirst() throws {
        var writer = TelnetWriter()
        let socket = Socket([2, 1000])
        let first = try [65, 255].withBytes { (bytes) throws(SerialError) in
            try writer.transmit(bytes) { socket.write($0) }
        }
        #expect(first == 1)
        #expect(try Self.send([66, 255], through: socket, writer: &writer) == 2)
        #expect(socket.stream == [65, 255, 241, 66, 255, 255])
        #expect(Self.decoded(socket.stream) == ([65, 66, 255], [.other(241)]))
    }

    /// `TelnetWriter` livelocked on a 0xFF data byte when the socket took exactly one
    /// byte per write (found by fuzzing): each try sent the pair's first half, then a
    /// `NOP`, for ever. Every byte taken is now progress.
    @Test func aSocketTakingOneBytePerWriteGetsEveryIACThrough() throws {
        var writer = TelnetWriter()
        let socket = Socket([1])
        #expect(try Self.send([255, 255, 65, 255], through: socket, writer: &writer) == 4)
        #expect(socket.stream == [255, 255, 255, 255, 65, 255, 255])
        #expect(Self.decoded(socket.stream) == ([255, 255, 65, 255], []))
    }

    /// What a telnet peer reads from `stream`: the data and the commands.
    static func decoded(_ stream: [UInt8]) -> ([UInt8], [TelnetDecoder.Command]) {
        var decoder = TelnetDecoder()
        var commands: [TelnetDecoder.Command] = []
        var stream = stream
        let count = stream.count
        let kept = stream.withUnsafeMutableBytes { decoder.decode($0, count: count, commands: &commands) }
        return (Array(stream[..<kept]), commands)
    }

    @Test func queuedCommandsGoBeforeTheNextDataAndNeverInsideAPair() throws {
        var writer = TelnetWriter()
        let socket = Socket([2, 1000])
        _ = try [65, 255].withBytes { (bytes) throws(SerialError) in try writer.transmit(bytes) { socket.write($0) } }
        let queued = writer.queue(command: [255, 252, 1])
        #expect(queued)
        #expect(try writer.flushCommands { socket.write($0) })
        #expect(socket.stream == [65, 255, 241, 255, 252, 1])
    }

    /// The telnet reply queue had no bound: a server toggling WILL/WONT and never
    /// reading grew tether steadily. It holds 4096 bytes; a reply past them is refused.
    @Test func theCommandQueueIsBounded() throws {
        var writer = TelnetWriter()
        var queued = 0
        while writer.queue(command: [255, 254, 1]), queued < 10_000 { queued += 1 }
        #expect(queued == TelnetWriter.maximumQueuedCommands / 3)
        let refused = !writer.queue(command: [255, 254, 1])
        #expect(refused)
        let socket = Socket([1_000_000])
        #expect(try writer.flushCommands { socket.write($0) })
        #expect(socket.stream.count == queued * 3)
        let again = writer.queue(command: [255, 254, 1])
        #expect(again, "room again once they went out")
    }
}
