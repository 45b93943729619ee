import Testing

@testable import TetherSerial

struct TelnetDecoderTests {
    typealias Command = TelnetDecoder.Command

    /// Data with 0xFF doubled, an option request, an RFC 2217 answer whose value holds
    /// a doubled 0xFF, and a NOP, between device bytes (CR, LF, NUL are data).
    static let stream: [UInt8] =
        Array("ab".utf8) + [255, 255] + [0, 13, 10] + [255, 253, 44] + Array("cd".utf8)
        + [255, 250, 44, 101, 0, 0, 255, 255, 255, 240] + [255, 241] + Array("ef".utf8)
    static let data: [UInt8] = Array("ab".utf8) + [255, 0, 13, 10] + Array("cdef".utf8)
    static let commands: [Command] = [
        .negotiation(verb: 253, option: 44), .subnegotiation([44, 101, 0, 0, 255]), .other(241),
    ]

    /// Feeds `stream` in chunks of the given sizes (the last repeated).
    static func decode(_ stream: [UInt8], chunks sizes: [Int]) -> ([UInt8], [Command]) {
        var decoder = TelnetDecoder()
        var data: [UInt8] = []
        var commands: [Command] = []
        var start = 0
        var index = 0
        while start < stream.count {
            let size = min(sizes[min(index, sizes.count - 1)], stream.count - start)
            var chunk = Array(stream[start..<start + size])
            let kept = chunk.withUnsafeMutableBytes { decoder.decode($0, count: size, commands: &commands) }
            data += chunk[..<kept]
            start += size
            index += 1
        }
        return (data, commands)
    }

    @Test func wholeOneByteAtATimeAndInRandomChunksGiveTheSameDataAndCommands() {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<20).map { _ in Int.random(in: 1...5, using: &generator) }
        for sizes in [[Self.stream.count], [1], [2], [3], random] {
            let (data, commands) = Self.decode(Self.stream, chunks: sizes)
            #expect(data == Self.data, "chunks \(sizes)")
            #expect(commands == Self.commands, "chunks \(sizes)")
        }
    }

    @Test func dataWithoutCommandsPassesUntouched() {
        let bytes = Array(0...254).map(UInt8.init)
        let (data, commands) = Self.decode(bytes, chunks: [bytes.count])
        #expect(data == bytes)
        #expect(commands.isEmpty)
    }

    @Test func anOverlongSubnegotiationIsCutNotGrown() {
        let body = [UInt8](repeating: 7, count: 1000)
        let (data, commands) = Self.decode([255, 250, 44] + body + [255, 240, 65], chunks: [100])
        #expect(data == [65])
        #expect(commands == [.subnegotiation([44] + body.prefix(TelnetDecoder.maximumSubnegotiation - 1))])
    }

    /// `IAC SB 44` and then data for ever silently swallowed the device's data (4.3 MB,
    /// no warning): after 4096 bytes without `IAC SE` the decoder gives up on it, says
    /// so, and the rest is data again — in one read or one byte at a time.
    @Test(arguments: [[8192], [1], [1000]])
    func anUnterminatedSubnegotiationEndsAtItsBound(chunks: [Int]) {
        let flood = (0..<8000).map { UInt8($0 % 200) }
        let (data, commands) = Self.decode([65, 255, 250, 44] + flood, chunks: chunks)
        let swallowed = TelnetDecoder.maximumSubnegotiationLength - 1  // the option byte is one of them
        #expect(data == [65] + flood.dropFirst(swallowed))
        #expect(commands == [.unterminatedSubnegotiation(option: 44)])
    }
}
