import Foundation
import Testing
import TetherPresenter
import TetherViews

/// `tether lines` through its views: the same ``ModemLineStatus`` as text and as JSON.
@Suite struct ModemLineViewTests {
    let status = ModemLineStatus(
        time: Date(timeIntervalSince1970: 1_800_000_000.25), port: "/dev/ttyUSB0", asserted: [.dtr, .cts, .ri],
        isEmulated: false)

    @Test func textShowsEveryLineInOrder() {
        let output = BufferSink()
        TextView(output: output, diagnostics: BufferSink(), environment: [:]).render(modemLines: status)
        #expect(output.text == "DTR on  RTS off  CTS on  DSR off  DCD off  RI on\n")
        var emulated = status
        emulated.isEmulated = true
        let pty = BufferSink()
        TextView(output: pty, diagnostics: BufferSink(), environment: [:]).render(modemLines: emulated)
        #expect(pty.text == "DTR on  RTS off  CTS on  DSR off  DCD off  RI on  (pseudo-terminal: emulated)\n")
    }

    @Test func jsonIsOneLinesRecord() {
        let output = BufferSink()
        JSONView(output: output).render(modemLines: status)
        #expect(
            output.text
                == #"{"cts":true,"dcd":false,"dsr":false,"dtr":true,"emulated":false,"port":"/dev/ttyUSB0","ri":true,"rts":false,"time":"2027-01-15T08:00:00.250Z","type":"lines","v":1}"#
                + "\n")
    }
}
