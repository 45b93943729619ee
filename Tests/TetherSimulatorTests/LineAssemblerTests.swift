import Testing

@testable import TetherSimulator

@Suite struct LineAssemblerTests {
    @Test func splitsAtCRAtLFAndAtCRLF() {
        var assembler = LineAssembler()
        #expect(
            assembler.append(Array("a\rb\nc\r\nd".utf8)) == [.line("a"), .line("b"), .line("c")])
        #expect(assembler.append(Array("\r".utf8)) == [.line("d")])
    }

    @Test func aCRLFSplitAcrossReadsGivesOneLine() {
        var assembler = LineAssembler()
        #expect(assembler.append(Array("TEMP?\r".utf8)) == [.line("TEMP?")])
        #expect(assembler.append(Array("\nHUM?".utf8)) == [])
        #expect(assembler.append(Array("\r\n".utf8)) == [.line("HUM?")])
    }

    @Test func reportsAnOverlongLineOnceAndRecoversAtItsTerminator() {
        var assembler = LineAssembler()
        let long = [UInt8](repeating: 65, count: LineAssembler.maximumLength + 1)
        #expect(assembler.append(long) == [.overflow])
        #expect(assembler.append(long + [10] + Array("X\n".utf8)) == [.line("X")])
    }

    @Test func resetForgetsAPartialLine() {
        var assembler = LineAssembler()
        _ = assembler.append(Array("garbage".utf8))
        assembler.reset()
        #expect(assembler.append(Array("OK\n".utf8)) == [.line("OK")])
    }
}
