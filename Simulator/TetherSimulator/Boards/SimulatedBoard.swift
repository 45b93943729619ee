/// The boards `tether-sim --board NAME` serves instead of a profile: devices that react
/// to what a client does to the port's lines and rate (Simulator/README.md, "Modem
/// lines and breaks").
package enum SimulatedBoard: String, CaseIterable, Sendable {
    /// An ESP32 behind its auto-reset circuit (``AutoResetBoard``).
    case esp32
    /// The `at-modem` profile switching its rate after `AT+IPR=<rate>` (``RateSwitchingModem``).
    case iprModem = "ipr-modem"

    /// A new device of this board.
    ///
    /// - Throws: ``ProfileError`` when a built-in profile it wraps is broken (a
    ///   packaging mistake).
    package func device() throws(ProfileError) -> any SimulatedDevice {
        switch self {
        case .esp32: AutoResetBoard()
        case .iprModem: RateSwitchingModem(try SimulatorProfiles.device(named: "at-modem"))
        }
    }
}
