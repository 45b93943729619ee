import CLibSerialPort
import Foundation

/// Owns an open libserialport port (`sp_port *`) and the descriptors that go with it,
/// and keeps the pointer valid for every call in flight.
///
/// `@unchecked Sendable` because of the raw `sp_port *`: it is only used inside
/// ``withPort(_:)``, which counts the call under `condition`; ``close()`` marks the
/// handle closed, wakes any `poll` through the self-pipe, waits under `condition`
/// until no call is in flight, and only then closes and frees the port. All mutable
/// state below is read and written with `condition` locked.
final class PortHandle: @unchecked Sendable {
    /// The port's file descriptor (`sp_get_port_handle`), valid until ``close()``.
    let descriptor: Int32
    /// The read end of the self-pipe: readable once ``close()`` has begun.
    var wakeDescriptor: Int32 { wakeUp.readEnd }

    private let condition = NSCondition()
    private var port: OpaquePointer?
    private var callsInFlight = 0
    private var isClosing = false
    private var hasHungUp = false

    private let wakeUp: WakeUpPipe
    private let lockDescriptor: Int32?

    /// Takes ownership of an open port and its exclusive-lock descriptor (if any).
    init(port: OpaquePointer, descriptor: Int32, lockDescriptor: Int32?, portName: String) throws(SerialError) {
        self.wakeUp = try WakeUpPipe(for: portName)
        self.port = port
        self.descriptor = descriptor
        self.lockDescriptor = lockDescriptor
    }

    deinit { close() }

    /// Whether the device has hung up (sticky).
    var isHungUp: Bool {
        condition.lock()
        defer { condition.unlock() }
        return hasHungUp
    }

    /// Records that the device hung up; later reads report it at once.
    func markHungUp() {
        condition.lock()
        hasHungUp = true
        condition.unlock()
    }

    /// Runs `body` with the open port, keeping it open until `body` returns.
    ///
    /// - Returns: `body`'s result, or nil if the port is closed or closing.
    func withPort<Result, Failure: Error>(
        _ body: (OpaquePointer) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        condition.lock()
        guard !isClosing, let port else {
            condition.unlock()
            return nil
        }
        callsInFlight += 1
        condition.unlock()
        defer {
            condition.lock()
            callsInFlight -= 1
            if callsInFlight == 0 { condition.broadcast() }
            condition.unlock()
        }
        return try body(port)
    }

    /// Closes the port: wakes blocked calls, waits for them to leave, then
    /// `sp_close`, `sp_free_port`, and releases the lock.
    /// Idempotent; a second caller returns at once.
    func close() {
        condition.lock()
        guard !isClosing, let port else {
            condition.unlock()
            return
        }
        isClosing = true
        wakeUp.signal()
        while callsInFlight > 0 { condition.wait() }
        self.port = nil
        condition.unlock()

        sp_close(port)
        sp_free_port(port)
        if let lockDescriptor { Glibc.close(lockDescriptor) }
        wakeUp.close()
    }
}
