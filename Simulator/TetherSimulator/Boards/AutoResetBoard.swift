import Synchronization

/// An ESP32 development board behind its USB-serial bridge's auto-reset circuit: the
/// two transistors that let DTR and RTS drive the chip's EN (reset) and IO0 (boot mode)
/// pins, as esptool's resets expect (docs/HARDWARE.md, "Reset sequences").
///
/// The circuit: EN is low (chip held in reset) while RTS is asserted and DTR is not;
/// IO0 is low while DTR is asserted and RTS is not; in the other two states both are
/// high. When EN rises the chip leaves reset after ``resetDelay`` (the EN pin's RC
/// delay) and samples IO0: low starts the ROM loader, which prints `waiting for
/// download` and answers esptool's SLIP `SYNC` command (0x08) with its response;
/// high boots the application, which prints its banner and ignores SLIP.
///
/// A client that never touches the lines talks to the application as it was left.
public final class AutoResetBoard: SimulatedDevice {
    /// What the chip is doing.
    public enum Mode: String, Sendable {
        /// Running the application (the state at power-up).
        case application
        /// Held in reset (EN low).
        case reset
        /// In the ROM's serial loader (download mode).
        case loader
    }

    /// The EN pin's delay from rising to the chip leaving reset.
    public static let resetDelay = Duration.milliseconds(2)
    /// What the ROM prints when it boots into the loader.
    public static let loaderBanner =
        "ets Jun  8 2016 00:22:57\r\n\r\nrst:0x1 (POWERON_RESET),boot:0x3 (DOWNLOAD_BOOT(UART0/UART1/SDIO_REI_REO_V2))\r\n"
        + "waiting for download\r\n"
    /// What the ROM and the application print when it boots normally.
    public static let applicationBanner =
        "ets Jun  8 2016 00:22:57\r\n\r\nrst:0x1 (POWERON_RESET),boot:0x13 (SPI_FAST_FLASH_BOOT)\r\n"
        + "I (312) app_main: application started\r\n"
    /// The loader's answer to `SYNC`: direction 1, command 0x08, two data bytes (status 0, 0).
    public static let syncResponse: [UInt8] = SLIP.encode([0x01, 0x08, 0x02, 0x00, 0, 0, 0, 0, 0x00, 0x00])

    private struct State {
        var dtr = true
        var rts = true
        var mode = Mode.application
        var bootAt: ContinuousClock.Instant?
        /// Whether IO0 was low at some point between EN's rise and the boot: the
        /// strap is latched then, so IO0 released before a late boot still counts.
        var bootPinWasLow = false
        var frame = SLIP.Decoder()
        var boots: [Mode] = []
        var breaks = 0
    }

    private let state = Mutex(State())

    /// Creates a board running its application.
    public init() {}

    /// What the chip is doing now.
    public var mode: Mode { state.withLock { $0.mode } }
    /// Each boot so far, in order: `application` or `loader`.
    public var boots: [Mode] { state.withLock { $0.boots } }

    public func lineSignal(_ signal: LineSignal, at now: ContinuousClock.Instant) -> [DeviceOutput] {
        state.withLock { state in
            guard case .modemLines(let dtr, let rts) = signal else { return [] }
            state.dtr = dtr
            state.rts = rts
            let isInReset = rts && !dtr
            if isInReset {
                state.mode = .reset
                state.bootAt = nil
                state.bootPinWasLow = false
            } else if state.mode == .reset, state.bootAt == nil {
                state.bootAt = now + Self.resetDelay
            }
            if state.bootAt != nil, dtr && !rts { state.bootPinWasLow = true }
            return []
        }
    }

    public var nextWakeUp: ContinuousClock.Instant? { state.withLock { $0.bootAt } }

    public func wakeUp(at now: ContinuousClock.Instant) -> [DeviceOutput] {
        state.withLock { state in
            guard let bootAt = state.bootAt, bootAt <= now else { return [] }
            state.bootAt = nil
            // Latched, not read now: a loaded machine's late wake-up found IO0 already
            // released by esptool's last step and booted the application.
            let isBootPinLow = state.bootPinWasLow || (state.dtr && !state.rts)
            state.bootPinWasLow = false
            state.mode = isBootPinLow ? .loader : .application
            state.boots.append(state.mode)
            state.frame = SLIP.Decoder()
            return [.send(isBootPinLow ? Self.loaderBanner : Self.applicationBanner)]
        }
    }

    public func receive(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> [DeviceOutput] {
        state.withLock { state in
            guard state.mode == .loader else { return [] }
            var outputs: [DeviceOutput] = []
            for packet in state.frame.feed(bytes) where packet.count >= 2 && packet[0] == 0x00 && packet[1] == 0x08 {
                outputs.append(.send(Self.syncResponse))
            }
            return outputs
        }
    }
}
