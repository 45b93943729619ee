import Synchronization
import Testing

@testable import TetherSerial

/// RS-485 direction control: the driver's (`TIOCSRS485`) where it has one, else RTS
/// raised by tether around each write. A pty has no RS-485 mode (`TIOCSRS485` answers
/// ENOTTY), so the driver's path is tested with an injected port that accepts it.
@Suite struct RS485PortTests {
    /// A port that records RTS changes and writes, in order; its driver accepts or
    /// refuses `TIOCSRS485`.
    final class RecordingPort: RS485Capable {
        enum Step: Equatable {
            case kernelMode(RS485Settings)
            case rts(Bool)
            case wrote([UInt8])
            case drained
        }
        let hasKernelMode: Bool
        let steps = Mutex<[Step]>([])
        init(hasKernelMode: Bool) { self.hasKernelMode = hasKernelMode }

        var name: String { "recording" }
        var descriptor: Int32 { -1 }
        func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int { 0 }
        func transmit(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int {
            steps.withLock { $0.append(.wrote(Array(bytes))) }
            return bytes.count
        }
        func close() {}
        func enableKernelRS485(_ settings: RS485Settings) throws(SerialError) {
            guard hasKernelMode else {
                throw .io(path: name, function: "ioctl(TIOCSRS485)", errno: 25, message: "Inappropriate ioctl")
            }
            steps.withLock { $0.append(.kernelMode(settings)) }
        }
        func drain() throws(SerialError) { steps.withLock { $0.append(.drained) } }
        func setDTR(_ asserted: Bool) throws(SerialError) {}
        func setRTS(_ asserted: Bool) throws(SerialError) { steps.withLock { $0.append(.rts(asserted)) } }
        func setLines(dtr: Bool?, rts: Bool?) throws(SerialError) {}
        func setBreak(_ isOn: Bool) throws(SerialError) {}
        func modemLines() throws(SerialError) -> ModemLines { [] }
        func sendBreak(milliseconds: Int) throws(SerialError) {}
        func pulseDTR(milliseconds: Int) throws(SerialError) {}
        func setBaudRate(_ baudRate: Int) throws(SerialError) {}
    }

    private func write(_ text: String, to port: RS485Port) throws -> Int {
        try Array(text.utf8).withUnsafeBytes { (bytes) throws(SerialError) in try port.transmit(bytes) }
    }

    @Test func aDriverWithRS485ModeRaisesRTSItself() throws {
        let recording = RecordingPort(hasKernelMode: true)
        let settings = RS485Settings(delayBeforeSend: 1, delayAfterSend: 2)
        let port = try RS485Port(recording, settings: settings)
        #expect(port.mode == .kernel)
        #expect(try write("ping", to: port) == 4)
        #expect(recording.steps.withLock { $0 } == [.kernelMode(settings), .wrote(Array("ping".utf8))])
        #expect(port.settingsReport.warnings.last?.contains("the driver raises RTS while sending") == true)
    }

    @Test func withoutItRTSIsRaisedAroundEachWrite() throws {
        let recording = RecordingPort(hasKernelMode: false)
        let port = try RS485Port(recording, settings: RS485Settings(delayBeforeSend: 0, delayAfterSend: 0))
        #expect(port.mode == .rtsOnSend)
        _ = try write("ping", to: port)
        #expect(
            recording.steps.withLock { $0 } == [
                .rts(false), .rts(true), .wrote(Array("ping".utf8)), .drained, .rts(false),
            ])
        #expect(port.settingsReport.warnings.last?.contains("tether raises RTS around each write") == true)
    }

    /// The real driver of a pty refuses TIOCSRS485, so a pty gets RTS-on-send.
    @Test func aPtyHasNoRS485Mode() throws {
        let pty = try PseudoTerminal()
        let serial = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        let port = try RS485Port(serial, settings: RS485Settings(delayBeforeSend: 1, delayAfterSend: 1))
        defer { port.close() }
        #expect(port.mode == .rtsOnSend)
        #expect(throws: SerialError.self) { try serial.enableKernelRS485(RS485Settings()) }
    }

    @Test func delaysAreParsed() {
        #expect(RS485Settings(parsing: "1,2") == RS485Settings(delayBeforeSend: 1, delayAfterSend: 2))
        #expect(RS485Settings(parsing: "1") == nil)
        #expect(RS485Settings(parsing: "-1,2") == nil)
        #expect(RS485Settings(parsing: "1,1001") == nil)
    }
}
