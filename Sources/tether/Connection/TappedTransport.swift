import Synchronization
import TetherSerial

/// Receives a copy of every chunk read from a port, on the reading thread, in order.
///
/// `connect` in raw mode shows each received byte as it arrives, partial lines and a
/// prompt without line end included, which the Model's events (whole lines) cannot
/// give. `nil` handler: nothing is copied.
final class ByteTap: Sendable {
    private let handler = Mutex<(@Sendable ([UInt8]) -> Void)?>(nil)

    init() {}

    /// Sets (or clears) what receives the chunks.
    func set(_ handler: (@Sendable ([UInt8]) -> Void)?) {
        self.handler.withLock { $0 = handler }
    }

    func deliver(_ bytes: [UInt8]) {
        handler.withLock { $0 }?(bytes)
    }
}

/// A transport that passes every call to `base` and hands what it reads to a
/// ``ByteTap`` too (a decorator: the Model sees the very same bytes).
final class TappedTransport: SerialTransport {
    let base: any SerialTransport
    let tap: ByteTap

    init(_ base: any SerialTransport, tap: ByteTap) {
        self.base = base
        self.tap = tap
    }

    var name: String { base.name }

    var descriptor: Int32 { base.descriptor }

    var settingsReport: SettingsReport { base.settingsReport }

    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        let count = try base.receive(into: buffer)
        if count > 0 { tap.deliver(Array(buffer[..<count])) }
        return count
    }

    func transmit(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int {
        try base.transmit(bytes)
    }

    func close() { base.close() }
}

extension TappedTransport: LineControl {
    /// The base transport's line control.
    ///
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` when it has none.
    private func lineControl() throws(SerialError) -> any LineControl {
        guard let control = base as? any LineControl else {
            throw .io(path: name, function: "line control", errno: 0, message: "not supported by this port")
        }
        return control
    }

    func setDTR(_ asserted: Bool) throws(SerialError) { try lineControl().setDTR(asserted) }
    func setRTS(_ asserted: Bool) throws(SerialError) { try lineControl().setRTS(asserted) }
    func modemLines() throws(SerialError) -> ModemLines { try lineControl().modemLines() }
    func sendBreak(milliseconds: Int) throws(SerialError) { try lineControl().sendBreak(milliseconds: milliseconds) }
    func pulseDTR(milliseconds: Int) throws(SerialError) { try lineControl().pulseDTR(milliseconds: milliseconds) }
    func setBaudRate(_ baudRate: Int) throws(SerialError) { try lineControl().setBaudRate(baudRate) }
}
