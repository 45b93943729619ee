import Synchronization
import TetherSerial

/// A ``SocketTransport`` whose device end sends what a Linux line discipline with
/// `PARMRK` gives a reader (`\377 \0 \0` for a break, `\377 \0 c` for an errored
/// character, `\377 \377` for 0xFF), decoded by the port's own ``MarkedInput``: the
/// path of a UART's break and framing errors, which a pty cannot produce.
final class MarkedSocketTransport: SerialTransport {
    let socket: SocketTransport
    private let input: Mutex<(decoding: MarkedInput, events: [PlacedLineEvent])>

    init(checksParity: Bool = false) throws {
        socket = try SocketTransport()
        input = Mutex((MarkedInput(checksParity: checksParity), []))
    }

    var name: String { socket.name }
    var descriptor: Int32 { socket.descriptor }

    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> Int {
        // Room for the byte a held `\377` may need (MarkedInputDecoder).
        let count = try socket.receive(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<(buffer.count - 1)]))
        return input.withLock { input in
            let (data, events) = input.decoding.decode(buffer, count: count)
            input.events += events
            return data
        }
    }

    func takeLineEvents() -> [PlacedLineEvent] {
        input.withLock { input in
            defer { input.events.removeAll() }
            return input.events
        }
    }

    func transmit(_ bytes: UnsafeRawBufferPointer) throws(SerialError) -> Int { try socket.transmit(bytes) }

    func close() { socket.close() }
}
