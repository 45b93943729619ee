/// One thing a ``SimulatedDevice`` wants the simulator to do, some time after the event
/// that produced it.
///
/// `delay` counts from the instant passed to the device callback that returned this
/// output (not from the previous output). Outputs fall due in order of their delay;
/// outputs with equal delays keep the order in which the device returned them.
/// Outputs still pending when the client closes the port are dropped.
public struct DeviceOutput: Sendable, Equatable {
    /// What to do when the output falls due.
    public enum Action: Sendable, Equatable {
        /// Write these bytes to the master in one `write()` call (the rest later if the
        /// client's input queue is full).
        case send([UInt8])
        /// Close the master: the client sees a hang-up, unread bytes are discarded by the
        /// kernel, and the simulator stops (as ``Simulator/stop()``).
        case hangUp
        /// Play these modem status inputs to the client from now on: drop DCD, ring RI
        /// (``Simulator/setModemInputs(_:)``).
        case modemInputs(Simulator.ModemInputs)
    }

    /// Time from the triggering event to this output.
    public var delay: Duration
    /// What to do.
    public var action: Action

    /// Creates an output from its parts.
    public init(after delay: Duration, _ action: Action) {
        self.delay = delay
        self.action = action
    }

    /// Bytes to write `delay` after the triggering event.
    public static func send(_ bytes: [UInt8], after delay: Duration = .zero) -> DeviceOutput {
        DeviceOutput(after: delay, .send(bytes))
    }

    /// The UTF-8 bytes of `text`, written `delay` after the triggering event.
    public static func send(_ text: String, after delay: Duration = .zero) -> DeviceOutput {
        DeviceOutput(after: delay, .send(Array(text.utf8)))
    }

    /// The modem status inputs `inputs`, played `delay` after the triggering event.
    public static func modemInputs(_ inputs: Simulator.ModemInputs, after delay: Duration = .zero) -> DeviceOutput {
        DeviceOutput(after: delay, .modemInputs(inputs))
    }

    /// A hang-up `delay` after the triggering event.
    public static func hangUp(after delay: Duration = .zero) -> DeviceOutput {
        DeviceOutput(after: delay, .hangUp)
    }
}
