import FoundationEssentials
import TetherSerial

/// Something that happened on a device's connection, stamped with the wall-clock
/// time it was observed. Observers receive events in the order they happened.
public struct DeviceEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// The port is open and configured; `settings` reads like `115200 8N1`: what the
        /// port reports having (`SerialTransport/settingsReport`), else what the
        /// device was created with.
        case connected(port: String, settings: String)
        /// A request, reply, notification, late reply or pending text (see ``SessionEvent``).
        case session(SessionEvent)
        /// The device hung up or vanished. Requests in flight have failed. Unless
        /// `reconnecting` follows, the connection is over.
        case disconnected(reason: String)
        /// After `disconnected`: the device reopens the port as soon as it is back
        /// (see ``PortOpener``); requests fail until `reconnected`.
        case reconnecting
        /// The port is open again with the same settings, after `attempts` attempts;
        /// `downtime` runs from the disconnect.
        case reconnected(port: String, settings: String, attempts: Int, downtime: Duration)
        /// After `connected` or `reconnected`: the port does not have a serial setting
        /// it was asked for (read back after the open: a pty ignores parity, a driver
        /// refuses a flow control, an RFC 2217 server sets another baud rate): which
        /// `setting` (`parity`), the value `requested` (`odd`) and the one the port has
        /// (`actual`: `none`), as in `SettingMismatch`.
        case settingMismatch(setting: String, requested: String, actual: String)
        /// Bytes as read from the port, one read's worth, before the session events
        /// they produced (in the same batch); only for observers that asked
        /// (``Device/events(_:includesBytes:)``).
        case received([UInt8])
        /// Bytes written at once, ahead of everything queued, with no terminator
        /// (``Device/writeNow(_:)``: Ctrl-C to a console while its command runs).
        case wroteNow([UInt8])
        /// tether did something to the port's lines or settings
        /// (``Device/run(_:)``, ``Device/setBaudRate(_:)``): see ``LineControlEvent``.
        case lineControl(LineControlEvent)
        /// The UART reported a line condition among the received bytes (a break, a
        /// framing or parity error, an overrun) or the modem status inputs changed
        /// (`LineEvent`): in order with the lines, after those that ended before it.
        case lineEvent(LineEvent)
        /// This observer fell behind and `count` events were dropped for it here.
        case missed(count: Int)
        /// A failure that does not end the connection by itself (e.g. a write error).
        case error(String)
    }

    /// When the event was observed.
    public var time: Date
    /// What happened.
    public var kind: Kind

    /// Creates an event.
    public init(time: Date = Date(), kind: Kind) {
        self.time = time
        self.kind = kind
    }
}
