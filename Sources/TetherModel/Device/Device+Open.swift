import TetherSerial

extension Device {
    /// Opens the serial port at `path` and returns a device over it, not yet started:
    /// attach observers with ``events(_:includesBytes:)``, then call ``start()``.
    ///
    /// ```swift
    /// let device = try Device.open("/dev/ttyUSB0", configuration: SerialConfiguration(baudRate: 9600))
    /// let events = device.events(.lossless)
    /// await device.start()
    /// let reply = try await device.query("*IDN?", timeout: .seconds(1))
    /// ```
    ///
    /// - Parameters:
    ///   - path: the device node or a link to it (see `SerialPort/open(_:configuration:options:)`);
    ///     also the device's name in events.
    ///   - configuration: baud rate, data bits, parity, stop bits, flow control
    ///     (default 115200 8N1, no flow control).
    ///   - dialect: how commands and replies are framed (default ``LineDialect``).
    ///   - pacing: pauses between characters and after each command (``Pacing``;
    ///     none by default).
    /// - Throws: `SerialError` when the port cannot be opened or configured, or the
    ///   device cannot be made (see ``init(transport:name:dialect:settings:maximumLineLength:writeDeadline:pacing:discardsWaitingInput:reopener:openingSequence:)``).
    public static func open(
        _ path: String, configuration: SerialConfiguration = SerialConfiguration(),
        dialect: any Dialect = LineDialect(), pacing: Pacing = Pacing()
    ) throws(SerialError) -> Device {
        let port = try SerialPort.open(path, configuration: configuration)
        return try Device(
            transport: port, name: path, dialect: dialect, settings: configuration.summary, pacing: pacing)
    }
}
