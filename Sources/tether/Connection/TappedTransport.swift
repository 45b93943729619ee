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

    func read(maxBytes: Int, timeout: Int) throws(SerialError) -> SerialReadResult {
        let result = try base.read(maxBytes: maxBytes, timeout: timeout)
        if case .data(let bytes) = result { tap.deliver(bytes) }
        return result
    }

    func write(_ bytes: [UInt8], timeout: Int) throws(SerialError) {
        try base.write(bytes, timeout: timeout)
    }

    func close() { base.close() }
}
