/// The behaviour of a simulated device: the seam where device profiles plug in.
///
/// A ``Simulator`` owns the pseudo-terminal and the timing; the device only decides what
/// to answer. Every callback is made on the simulator's serving thread, one at a time,
/// with the current instant of `ContinuousClock`, and returns the outputs to perform
/// (each with a delay from that instant, see ``DeviceOutput``). The simulator calls the
/// device only while a client has the slave open, so a device never writes into a port
/// nobody listens to; a device is `Sendable` so that tests can inspect it from other
/// threads.
///
/// Event order for one client: ``clientDidConnect(at:)``, then any number of
/// ``receive(_:at:)`` and ``wakeUp(at:)`` calls, then ``clientDidDisconnect(at:)``. The
/// same device may see several clients in turn (the port is opened and closed again).
public protocol SimulatedDevice: AnyObject, Sendable {
    /// A client opened the slave (the master's `POLLHUP` cleared).
    ///
    /// - Parameter now: The instant the open was noticed (within about 10 ms of it).
    /// - Returns: Outputs to perform, e.g. a boot banner. The default returns none.
    func clientDidConnect(at now: ContinuousClock.Instant) -> [DeviceOutput]

    /// Bytes arrived from the client, exactly as one `read()` returned them.
    ///
    /// - Parameters:
    ///   - bytes: The bytes read (1 to 4096).
    ///   - now: The instant they were read.
    /// - Returns: Outputs to perform (replies).
    func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [DeviceOutput]

    /// When the device next wants ``wakeUp(at:)`` called, or `nil` for never.
    ///
    /// Read after every callback. A device that returns an instant in the past must move
    /// it forward in ``wakeUp(at:)``, or it is woken again at once. The default is `nil`.
    var nextWakeUp: ContinuousClock.Instant? { get }

    /// The instant from ``nextWakeUp`` has come: produce unsolicited output.
    ///
    /// - Parameter now: The current instant (at or after the requested one).
    /// - Returns: Outputs to perform. The default returns none.
    func wakeUp(at now: ContinuousClock.Instant) -> [DeviceOutput]

    /// The client changed the port's modem lines, sent a break or set its baud rate
    /// (``LineSignal``): announced by tether's pty compatibility layer, or read from the
    /// slave's termios before the bytes that follow it are received.
    ///
    /// - Returns: Outputs to perform (a board's boot banner after a reset). The default
    ///   returns none.
    func lineSignal(_ signal: LineSignal, at now: ContinuousClock.Instant) -> [DeviceOutput]

    /// The client closed the slave (the master's `POLLHUP` came back). Pending outputs
    /// have been dropped. The default does nothing.
    func clientDidDisconnect(at now: ContinuousClock.Instant)
}

extension SimulatedDevice {
    public func clientDidConnect(at now: ContinuousClock.Instant) -> [DeviceOutput] { [] }
    public var nextWakeUp: ContinuousClock.Instant? { nil }
    public func wakeUp(at now: ContinuousClock.Instant) -> [DeviceOutput] { [] }
    public func lineSignal(_ signal: LineSignal, at now: ContinuousClock.Instant) -> [DeviceOutput] { [] }
    public func clientDidDisconnect(at now: ContinuousClock.Instant) {}
}
