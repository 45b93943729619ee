import Testing

@testable import TetherModel

@Suite struct LineFramerTests {
    /// Feeds `bytes` in the chunks given by `sizes` (cycled) and returns the lines.
    private func frame(_ bytes: [UInt8], chunks sizes: [Int], maximumLineLength: Int = 64) -> [Line] {
        var framer = LineFramer(maximumLineLength: maximumLineLength)
        var lines: [Line] = []
        var index = 0
        var turn = 0
        while index < bytes.count {
            let size = max(1, sizes[turn % sizes.count])
            lines += framer.append(bytes[index..<min(bytes.count, index + size)])
            index += size
            turn += 1
        }
        if let tail = framer.finish() { lines.append(tail) }
        return lines
    }

    @Test func splitsOnLFCRAndCRLF() {
        let lines = frame(Array("a\nb\rc\r\nd".utf8), chunks: [100])
        #expect(lines.map(\.text) == ["a", "b", "c", "d"])
        #expect(lines.map(\.ending) == [.terminated, .terminated, .terminated, .unterminated])
    }

    @Test func crlfSplitAcrossReadsCountsOnce() {
        var framer = LineFramer()
        #expect(framer.append(Array("OK\r".utf8)).map(\.text) == ["OK"])
        #expect(framer.append(Array("\nNEXT\n".utf8)).map(\.text) == ["NEXT"])
    }

    @Test func emptyLinesAreReported() {
        #expect(frame(Array("\r\nOK\r\n\r\n".utf8), chunks: [100]).map(\.text) == ["", "OK", ""])
    }

    /// The decoder verifier: whole, byte by byte and in uneven chunks, the lines are
    /// the same.
    @Test(arguments: [[1], [2], [3, 1, 7], [5, 2], [1000]])
    func sameLinesWhateverTheChunks(sizes: [Int]) {
        let bytes = Array("\r\n+CSQ: 23,99\r\n\r\nOK\r\nAB\u{0}CD\r\n".utf8) + [0x99, 0xF8, 0x0A]
        let expected = frame(bytes, chunks: [bytes.count])
        #expect(frame(bytes, chunks: sizes) == expected)
        #expect(
            expected.map(\.bytes) == [
                [], Array("+CSQ: 23,99".utf8), [], Array("OK".utf8), [0x41, 0x42, 0, 0x43, 0x44], [0x99, 0xF8],
            ])
    }

    /// A NUL byte does not cut the line.
    @Test func nulIsKept() {
        #expect(frame(Array("AB\u{0}CD\r\n".utf8), chunks: [1]).first?.bytes == [0x41, 0x42, 0x00, 0x43, 0x44])
    }

    /// A stream without terminator is cut at the maximum length and the
    /// following terminated line is intact.
    @Test func overlongRunsAreCutAndBounded() {
        let bytes = [UInt8](repeating: 0x41, count: 10) + Array("\nOK\n".utf8)
        let lines = frame(bytes, chunks: [3], maximumLineLength: 4)
        #expect(lines.map(\.bytes.count) == [4, 4, 2, 2])
        #expect(lines.map(\.ending) == [.overlong, .overlong, .terminated, .terminated])
        #expect(lines.last?.text == "OK")
    }

    @Test func partialHoldsThePrompt() {
        var framer = LineFramer()
        _ = framer.append(Array("fw 1.2.3\r\n=> ".utf8))
        #expect(framer.partial == Array("=> ".utf8))
        #expect(framer.takePartial() == Array("=> ".utf8))
        #expect(framer.finish() == nil)
    }
}
