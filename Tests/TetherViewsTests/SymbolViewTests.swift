import Foundation
import Testing
import TetherPresenter
import TetherSerial
import TetherViews

@testable import TetherModel

/// A crash report's addresses (`--elf`) in the views: lines under the line in text and
/// the transcript, as `addr2line -p -i` writes them; a `line_symbols` list in JSON
/// (docs/JSON.md, "Crash addresses").
@Suite struct SymbolViewTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000.25)
    static let line = "Backtrace: 0x400d1a2b:0x3ffb1f60 0x40000000:0x3ffb1f80"

    /// The frames of the addresses it knows; every other address is outside.
    struct TableSymbols: AddressSymbolizing {
        let table: [UInt64: [CodeFrame]] = [
            0x400d_1a2b: [
                CodeFrame(function: "square", file: "main/app.c", line: 3, isInlined: true),
                CodeFrame(function: "app_main", file: "main/app.c", line: 9),
            ]
        ]

        func lookUp(_ address: UInt64) -> AddressLookup { table[address].map(AddressLookup.frames) ?? .outside }
    }

    private func render(with view: (BufferSink) -> any DeviceView) -> String {
        let output = BufferSink()
        let chosen = view(output)
        var facts = DeviceFacts()
        facts.symbolizer = TableSymbols()
        var presenter = Presenter(port: "/dev/ttyUSB0", facts: facts)
        for line in [Self.line, "I (10) boot: ok"] {
            for record in presenter.handle(DeviceEvent(time: time, kind: .session(.notification(Line(line))))) {
                chosen.render(record, state: presenter.state)
            }
        }
        return output.text
    }

    @Test func textShowsEachAddressAndItsInlineFramesUnderTheLine() {
        let text = render { TextView(output: $0, diagnostics: BufferSink(), environment: [:]) }
        #expect(
            text == """
                \(Self.line)
                  0x400d1a2b: square at main/app.c:3
                              (inlined by) app_main at main/app.c:9
                  0x40000000: outside the ELF file
                I (10) boot: ok

                """)
    }

    @Test func jsonHasTheSymbolsBesideTheExactLine() throws {
        let lines = render { JSONView(output: $0) }.split(separator: "\n")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(record["line"] as? String == Self.line)
        let symbols = try #require(record["line_symbols"] as? [[String: Any]])
        #expect(symbols.map { $0["address"] as? String } == ["0x400d1a2b", "0x40000000"])
        #expect(symbols.map { $0["field"] as? String } == ["backtrace", "backtrace"])
        let frames = try #require(symbols[0]["frames"] as? [[String: Any]])
        #expect(frames.map { $0["function"] as? String } == ["square", "app_main"])
        #expect(frames.map { $0["file"] as? String } == ["main/app.c", "main/app.c"])
        #expect(frames.map { $0["line"] as? Int } == [3, 9])
        #expect(frames.map { $0["inlined"] as? Bool } == [true, nil])
        #expect(symbols[1]["outside"] as? Bool == true)
        #expect(symbols[1]["frames"] == nil)
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(plain["line_symbols"] == nil)
    }

    @Test func theTranscriptNotesThemAfterTheLine() {
        let text = render { TranscriptView(output: $0, timestamps: Timestamper(.hour24Start)) }
        #expect(
            text.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) } == [
                "< \(Self.line)",
                "* 0x400d1a2b: square at main/app.c:3", "*             (inlined by) app_main at main/app.c:9",
                "* 0x40000000: outside the ELF file", "< I (10) boot: ok",
            ])
    }
}
