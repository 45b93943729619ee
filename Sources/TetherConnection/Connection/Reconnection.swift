import TetherSerial

/// Which ports a command waits for and reopens after a disconnect (docs/HARDWARE.md,
/// "The device goes away and comes back").
package enum Reconnection: Equatable {
    /// None: a disconnect ends the command (`query`, `--no-reconnect`).
    case never
    /// Ports on another machine only (`tcp://`, `rfc2217://`): `run`, where a network
    /// link that drops and returns is no verdict on the device, while a local port
    /// going away is one (the script stops at its next use of it, exit 74).
    case remotePorts
    /// Every port that is not an in-process simulator (`monitor`, `connect`).
    case everyPort

    /// Whether a disconnect of the port at `address` (`nil`: the port `--match`
    /// selects, always local) is followed by waiting and reopening.
    package func applies(to address: PortAddress?) -> Bool {
        switch self {
        case .never: false
        case .remotePorts: address?.isRemote == true
        case .everyPort: true
        }
    }

    /// This, narrowed to ``remotePorts``.
    package var remoteOnly: Reconnection { self == .never ? .never : .remotePorts }
}
