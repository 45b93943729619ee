import Testing

@testable import TetherModel

/// The decoder verifier for payloads: each kind framed whole, byte by byte and in
/// random chunks gives the same lines, payloads and pieces.
@Suite struct PayloadFramingTests {
    /// A 2000-byte block holding every byte value, 0x0A and 0x0D among them.
    static let block = (0..<2000).map { UInt8($0 % 256) }

    /// Feeds each segment in chunks (`sizes`, or random sizes when `nil`), lets the
    /// line go quiet after each (an indefinite block may end there), then ends the stream.
    static func frame(
        _ segments: [[UInt8]], chunks sizes: [Int]?, seed: UInt64 = 1, maximumLineLength: Int = 65_536,
        framing: any PayloadFraming
    ) -> [Line] {
        var framer = LineFramer(maximumLineLength: maximumLineLength, payloadFraming: framing)
        var random = SplitMix64(seed: seed)
        var lines: [Line] = []
        for bytes in segments {
            var index = 0
            var turn = 0
            while index < bytes.count {
                let size = max(1, sizes.map { $0[turn % $0.count] } ?? Int(random.next() % 97) + 1)
                lines += framer.append(bytes[index..<min(bytes.count, index + size)])
                index += size
                turn += 1
            }
            if let block = framer.endIndefiniteBlock() { lines.append(block) }
        }
        if let tail = framer.finish() { lines.append(tail) }
        return lines
    }

    /// The lines of `segments` framed whole, after checking that every other way of
    /// cutting them into reads frames them the same.
    static func verified(
        _ segments: [[UInt8]], maximumLineLength: Int = 65_536, framing: any PayloadFraming
    ) -> [Line] {
        let whole = frame(segments, chunks: [Int.max / 2], maximumLineLength: maximumLineLength, framing: framing)
        for sizes in [[1], [2], [3, 1, 7], [64]] {
            #expect(frame(segments, chunks: sizes, maximumLineLength: maximumLineLength, framing: framing) == whole)
        }
        for seed in UInt64(1)...20 {
            #expect(
                frame(segments, chunks: nil, seed: seed, maximumLineLength: maximumLineLength, framing: framing)
                    == whole)
        }
        return whole
    }

    @Test func definiteLengthBlockIsTakenByCount() {
        let stream =
            Array("#42000".utf8) + Self.block + Array("\n+1.5\n# hello\n#A\n#4\n:CURV #15a\nb\rc\n".utf8)
        let lines = Self.verified([stream], framing: ArbitraryBlockFraming())
        #expect(lines.count == 6)
        #expect(lines[0].payload.map(Array.init) == Self.block)
        #expect(lines[0].payloadRange == 6..<2006)
        #expect(lines[0].terminator == .lf)
        #expect(lines[1...].map(\.text) == ["+1.5", "# hello", "#A", "#4", ":CURV #15a\nb\rc"])
        #expect(lines[1...4].allSatisfy { $0.payloadRange == nil })
        #expect(lines[5].payloadRange == 9..<14)
    }

    @Test func indefiniteLengthBlockEndsAtLFThenQuiet() {
        let data = Array("ab\ncd\n\r\nef".utf8)
        let lines = Self.verified(
            [Array("#0".utf8) + data + [0x0A], Array("+1.0\n".utf8)], framing: ArbitraryBlockFraming())
        #expect(lines.count == 2)
        #expect(lines[0].payload.map(Array.init) == data)
        #expect(lines[0].terminator == .lf)
        #expect(lines[1].text == "+1.0")
    }

    /// A header that, with the text before it, is longer than a line is text: no piece
    /// is longer than the maximum (found by fuzzing, `Fuzz/Targets/session.swift`: with
    /// a 1-byte maximum line, `#0#` gave the 2-byte piece `#0`, and a stream ending in the
    /// incomplete header `#5` gave it whole at the end).
    @Test func aHeaderLongerThanALineIsText() {
        for text in ["#0#", "#15abcde", "x#0ab", "#5", "x#52"] {
            let lines = Self.verified([Array(text.utf8)], maximumLineLength: 1, framing: ArbitraryBlockFraming())
            #expect(lines.map(\.bytes) == text.utf8.map { [$0] }, "\(text)")
            #expect(lines.allSatisfy { $0.payloadRange == nil }, "\(text)")
        }
        let fits = Self.verified([Array("#15abcde".utf8)], maximumLineLength: 3, framing: ArbitraryBlockFraming())
        #expect(fits.first?.payloadRange == 3..<3)
    }

    @Test func espATPayloadEndsItsLine() {
        let stream = Array("\r\n+IPD,1,11:OK\r\nHELLO\r\n\r\nOK\r\n+IPD,3:a\rb+CSQ: 1,2\r\n+IPD,x\r\n".utf8)
        let lines = Self.verified([stream], framing: TemplatePayloadFraming(ATDialect.builtInPayloadHeaders))
        #expect(lines.map(\.text) == ["", "+IPD,1,11:OK\r\nHELLO\r\n", "", "OK", "+IPD,3:a\rb", "+CSQ: 1,2", "+IPD,x"])
        #expect(lines[1].payload.map(Array.init) == Array("OK\r\nHELLO\r\n".utf8))
        #expect(lines[1].terminator == nil)
        #expect(lines[4].payloadRange == 7..<10)
        #expect(lines.map { $0.payloadRange != nil } == [false, true, false, false, true, false, false])
    }

    @Test func quectelPayloadFollowsItsHeaderLine() {
        let stream = Array("\r\n+QIRD: 5\r\nab\r\nc\r\nOK\r\n+QIRD: 0\r\nOK\r\n".utf8)
        let lines = Self.verified([stream], framing: TemplatePayloadFraming(ATDialect.builtInPayloadHeaders))
        #expect(lines.map(\.text) == ["", "+QIRD: 5", "ab\r\nc", "", "OK", "+QIRD: 0", "OK"])
        #expect(lines[2].payloadRange == 0..<5)
        #expect(lines[1].terminator == .crlf)
    }

    /// A payload longer than the maximum line length is still taken by count, in
    /// overlong pieces that each carry their part of it; memory stays bounded.
    /// `#9999999999` then LF (docs/DIALECTS.md, "Binary payloads"): the first 9 says nine
    /// length digits, so the whole of it is a header announcing a 999 999 999-byte block;
    /// the LF and every byte after it are the block's data, taken by count in pieces of
    /// the maximum line length, never lines of text.
    @Test func aHugeDefiniteLengthIsTakenByCount() {
        let stream = Array("#9999999999\n+1.5\nOK\n".utf8)
        let lines = Self.verified([stream], maximumLineLength: 16, framing: ArbitraryBlockFraming())
        #expect(lines.map(\.ending) == [.overlong, .unterminated])
        #expect(lines.map(\.payloadRange) == [11..<16, 0..<4])
        #expect(lines.flatMap { $0.payload.map(Array.init) ?? [] } == Array("\n+1.5\nOK\n".utf8))
    }

    @Test func longPayloadComesInPieces() {
        let data = (0..<40).map { UInt8($0 % 3 == 0 ? 0x0A : 0x41) }
        let lines = Self.verified(
            [Array("#240".utf8) + data + Array("\nOK\n".utf8)], maximumLineLength: 16, framing: ArbitraryBlockFraming())
        #expect(lines.map(\.ending) == [.overlong, .overlong, .terminated, .terminated])
        #expect(lines.map(\.payloadRange) == [4..<16, 0..<16, 0..<12, nil])
        #expect(lines.prefix(3).flatMap { $0.payload.map(Array.init) ?? [] } == data)
        #expect(lines.last?.text == "OK")
    }

    @Test func aDeclaredFormIsFramed() throws {
        let form = try PayloadHeaderTemplate("#DATA {{{ch}}} {len}:")
        let lines = Self.verified(
            [Array("#DATA {2} 4:\r\n\r\nOK\r\n".utf8)], framing: TemplatePayloadFraming([form]))
        #expect(lines.map(\.text) == ["#DATA {2} 4:\r\n\r\n", "OK"])
        #expect(form.prefix == nil)
        #expect(PayloadHeaderTemplate.quectel.prefix == "+QIRD")
    }

    @Test(arguments: [
        ("+IPD,{id}:", "it needs exactly one {len} field, the payload's length"),
        ("{len}:", "it must start with text, e.g. '+IPD,'"),
        ("+X{id}{len}:", "two fields need text between them"),
        ("+X{len", "a '{' is not closed (write '{{' for a brace)"),
        ("+X}{len}", "a '}' is not opened (write '}}' for a brace)"),
    ])
    func invalidTemplatesSayWhy(template: String, reason: String) {
        #expect(throws: PayloadHeaderTemplate.Invalid(template: template, reason: reason)) {
            try PayloadHeaderTemplate(template)
        }
    }

    @Test func terminatorsAreRecorded() {
        var framer = LineFramer()
        #expect(framer.append(Array("a\nb\rc\r\nd\n".utf8)).map(\.terminator) == [.lf, .cr, .crlf, .lf])
    }
}
