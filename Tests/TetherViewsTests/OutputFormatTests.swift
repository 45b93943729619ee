import Testing
import TetherPresenter

@testable import TetherViews

/// ``OutputFormat``: the one place a command's view is made from `--format`.
@Suite struct OutputFormatTests {
    @Test func everyFormatIsFoundByItsNameWhateverItsCase() {
        for format in OutputFormat.all {
            #expect(OutputFormat.named(format.name) == format)
            #expect(OutputFormat.named(format.name.uppercased()) == format)
        }
        #expect(OutputFormat.named("xml") == nil)
    }

    @Test func textAndJSONShowEveryKindOfOutputButTextHasNoLiveRecords() throws {
        for format in [OutputFormat.text, .json] {
            try format.check(.eventLog)
            try format.check(.run)
            try format.check(.portList)
            try format.check(.modemLines)
            try format.check(.transfer)
        }
        #expect(OutputFormat.showing(.liveState).map(\.name) == ["json"])
    }

    @Test func aFormatWithoutAViewOfAKindIsRefusedByName() {
        #expect(
            throws: UnsupportedFormat(format: "text", kind: "a live device state", supported: ["json"])
        ) { try OutputFormat.text.make(.liveState) }
        let error = UnsupportedFormat(format: "text", kind: "a live device state", supported: ["json"])
        #expect(
            error.description == "The format 'text' cannot show a live device state; please provide one of 'json'.")
    }

    @Test func theViewMadeWritesWhereTheSettingsSay() throws {
        let sink = BufferSink()
        let view = try OutputFormat.json.make(.portList, ViewSettings(output: sink))
        view.render(ports: [
            PortSummary(
                name: "/dev/ttyUSB0", description: nil, transport: "usb", vendorID: nil, productID: nil,
                manufacturer: nil, product: nil, serialNumber: nil, links: [])
        ])
        #expect(sink.text.hasPrefix("{") && sink.text.contains("\"name\":\"/dev/ttyUSB0\""))
    }
}
