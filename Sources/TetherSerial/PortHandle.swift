import CLibSerialPort
import Dispatch
import Glibc
import Synchronization
import TetherPoll

/// Owns an open libserialport port (`sp_port *`) and the descriptors that go with it,
/// and keeps the pointer valid for every call in flight.
///
/// `@unchecked Sendable` because of the raw `sp_port *`: it is only used inside
/// ``withPort(_:)``, which enters `callsInFlight` while `state` says the handle is
/// open; ``close()`` marks the handle closed (so no call enters again), waits until
/// every call in flight has left, and only then closes and frees the port. Calls do
/// not block (the port loop `poll`s the descriptor itself), so the wait is short.
final class PortHandle: @unchecked Sendable {
    /// The port's file descriptor (`sp_get_port_handle`), valid until ``close()``.
    let descriptor: Int32

    private struct State {
        var isClosing = false
        var hasHungUp = false
    }

    private let port: OpaquePointer
    private let state = Mutex(State())
    private let callsInFlight = DispatchGroup()
    private let lockDescriptor: Int32?
    private let lockFile: UUCPLockFile?

    /// Takes ownership of an open port, its exclusive-lock descriptor and its UUCP lock
    /// file (if any).
    init(port: OpaquePointer, descriptor: Int32, lockDescriptor: Int32?, lockFile: UUCPLockFile?) {
        self.port = port
        self.descriptor = descriptor
        self.lockDescriptor = lockDescriptor
        self.lockFile = lockFile
    }

    deinit { close() }

    /// Whether the device has hung up (sticky).
    var isHungUp: Bool { state.withLock { $0.hasHungUp } }

    /// Records that the device hung up; later reads report it at once.
    func markHungUp() { state.withLock { $0.hasHungUp = true } }

    /// Runs `body` with the open port, keeping it open until `body` returns.
    ///
    /// - Returns: `body`'s result, or nil if the port is closed or closing.
    func withPort<Result, Failure: Error>(
        _ body: (OpaquePointer) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        let entered = state.withLock { state in
            if state.isClosing { return false }
            callsInFlight.enter()
            return true
        }
        guard entered else { return nil }
        defer { callsInFlight.leave() }
        return try body(port)
    }

    /// Closes the port: waits for the calls in flight to leave, then
    /// `sp_close`, `sp_free_port`, and releases the locks.
    /// Idempotent; a second caller returns at once.
    func close() {
        let first = state.withLock { state in
            defer { state.isClosing = true }
            return !state.isClosing
        }
        guard first else { return }
        callsInFlight.wait()

        sp_close(port)
        sp_free_port(port)
        lockFile?.release()
        if let lockDescriptor { Glibc.close(lockDescriptor) }
    }
}
