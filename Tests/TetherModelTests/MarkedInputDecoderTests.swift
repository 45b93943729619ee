import Testing
import TetherSerial

/// The `PARMRK` unmarking (``MarkedInputDecoder``) verified as every decoder is: the
/// same data and marks whole, byte by byte and in random chunks, nothing left over.
@Suite struct MarkedInputDecoderTests {
    /// A stream with every marking, decoys around them: doubled 0xFF, a break, an
    /// errored `A`, 0xFF before NUL as data (`\377 \377 \0 \0`), a lone 0xFF before a
    /// byte (data both), CR LF.
    static let stream: [UInt8] =
        Array("AB".utf8) + [0xFF, 0xFF] + Array("C".utf8) + [0xFF, 0x00, 0x00] + Array("D".utf8)
        + [0xFF, 0x00, 0x41] + [0xFF, 0xFF, 0x00, 0x00] + [0xFF, 0x42] + [0xFF, 0xFF, 0xFF, 0xFF] + Array("\r\n".utf8)
    static let data: [UInt8] =
        Array("AB".utf8) + [0xFF] + Array("CD".utf8) + [0xFF, 0x00, 0x00] + [0xFF, 0x42] + [0xFF, 0xFF]
        + Array("\r\n".utf8)
    static let marks: [Placed] = [Placed(offset: 4, mark: .lineBreak), Placed(offset: 5, mark: .erroredByte(0x41))]

    struct Placed: Equatable {
        var offset: Int
        var mark: MarkedInputDecoder.Mark
    }

    /// Decodes `stream` cut into reads of `sizes` (repeated), as the port reads it:
    /// each read's data and marks placed in the whole data.
    static func decode(_ stream: [UInt8], sizes: [Int]) -> (data: [UInt8], marks: [Placed], rest: [UInt8]) {
        var decoder = MarkedInputDecoder()
        var data: [UInt8] = []
        var marks: [Placed] = []
        var start = 0
        var turn = 0
        while start < stream.count {
            let size = min(sizes[turn % sizes.count], stream.count - start)
            turn += 1
            var buffer = Array(stream[start..<(start + size)]) + [0]
            let before = data.count
            let count = buffer.withUnsafeMutableBytes { raw in
                decoder.decode(raw, count: size) { marks.append(Placed(offset: before + $0, mark: $1)) }
            }
            data += buffer[..<count]
            start += size
        }
        return (data, marks, decoder.finish())
    }

    @Test(arguments: [[1000], [1], [2], [3], [1, 2, 5], [4, 1]])
    func sameDataAndMarksWhateverTheChunks(sizes: [Int]) {
        let decoded = Self.decode(Self.stream, sizes: sizes)
        #expect(decoded.data == Self.data)
        #expect(decoded.marks == Self.marks)
        #expect(decoded.rest.isEmpty)
    }

    @Test(arguments: [1, 7, 42])
    func sameDataAndMarksInRandomChunks(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let sizes = (0..<50).map { _ in Int.random(in: 1...6, using: &generator) }
        let decoded = Self.decode(Self.stream, sizes: sizes)
        #expect(decoded.data == Self.data)
        #expect(decoded.marks == Self.marks)
    }

    /// A read without 0xFF is given back as it is.
    @Test func plainBytesAreUntouched() {
        let plain = Array("hello\r\n\u{0}".utf8)
        #expect(Self.decode(plain, sizes: [100]).data == plain)
        #expect(Self.decode(plain, sizes: [100]).marks.isEmpty)
    }

    /// A marking cut by the end of the stream is data: nothing is lost.
    @Test(arguments: [[0xFF], [0xFF, 0x00]] as [[UInt8]])
    func markingCutByTheEndIsData(tail: [UInt8]) {
        let decoded = Self.decode(Array("OK".utf8) + tail, sizes: [1])
        #expect(decoded.data == Array("OK".utf8))
        #expect(decoded.rest == tail)
    }

    /// A read that is only a break gives no data and the mark at offset 0.
    @Test func aBreakAloneIsNoData() {
        var decoder = MarkedInputDecoder()
        var buffer: [UInt8] = [0xFF, 0x00, 0x00, 0]
        var marks: [Placed] = []
        let count = buffer.withUnsafeMutableBytes { raw in
            decoder.decode(raw, count: 3) { marks.append(Placed(offset: $0, mark: $1)) }
        }
        #expect(count == 0)
        #expect(marks == [Placed(offset: 0, mark: .lineBreak)])
        #expect(!decoder.holdsPartialMark)
    }
}
