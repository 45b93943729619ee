import Glibc
import TetherLibC
import TetherPoll

/// A simulated serial device on a pseudo-terminal, served from its own thread.
///
/// The simulator keeps the master side of a new pty and reports the slave's path
/// (``devicePath``, e.g. `/dev/pts/7`), which a client opens as its serial port. The
/// slave keeps the kernel's default termios (cooked mode): the client must set raw mode
/// itself. The simulator notices a client opening the slave (the master's `POLLHUP`
/// clears, within about 10 ms) and closing it (`POLLHUP` returns), writes nothing while
/// no client has the slave open, and hands every byte received to its
/// ``SimulatedDevice``, whose outputs it performs at their due time.
///
/// Serving runs on a dedicated thread (never on Swift's cooperative pool) from `init`
/// until ``stop()`` or a hang-up requested by the device. `deinit` stops it.
///
/// ```swift
/// let simulator = try Simulator(link: "/tmp/ttyENV")
/// print(simulator.devicePath)   // "/dev/pts/7"
/// ```
public final class Simulator: Sendable {
    /// The slave's path, e.g. `/dev/pts/7`; a new one after each reappearance of a
    /// disconnect fault (``FaultPlan/Disconnect``), so clients that must reconnect use
    /// ``linkPath``.
    public var devicePath: String {
        state.withLock { $0.devicePath }
    }
    /// The absolute path of the symbolic link to ``devicePath``, when one was asked for.
    public let linkPath: String?
    /// The device answering the client.
    public let device: any SimulatedDevice
    /// The faults injected (``FaultPlan/isEmpty`` when none).
    public let faults: FaultPlan

    /// How long a hang-up from a disconnect fault waits after the last byte was written
    /// before closing the master, so the client has read it (the kernel discards unread
    /// bytes at hang-up; Simulator/README.md, "How the pseudo-terminal behaves").
    public static let hangUpGrace: Duration = .milliseconds(300)

    let state: ServingState
    private let wakeUp: WakeUpPipe

    /// Opens a pseudo-terminal, creates the optional link and starts serving.
    ///
    /// - Parameters:
    ///   - device: The device behaviour; by default the built-in `env` profile
    ///     (``SimulatorProfiles/defaultDevice()``).
    ///   - link: A path for a symbolic link to the slave, or `nil`. An existing symbolic
    ///     link there is replaced; the link is removed by ``stop()`` and at `exit`.
    ///   - faults: The faults to inject and whether notifications get sequence numbers
    ///     (see ``FaultPlan``); none by default.
    ///   - transcript: Where to record every byte read and written, or `nil`.
    /// - Throws: ``SimulatorError`` when the pty, the wake-up pipe or the link cannot be
    ///   created or the serving thread cannot start (`.pseudoTerminalUnavailable`,
    ///   `.wakeUpPipeFailed`, `.linkPathOccupied`, `.linkFailed`, `.threadFailed`);
    ///   nothing is left open then.
    public init(
        device: any SimulatedDevice = SimulatorProfiles.defaultDevice(), link: String? = nil,
        faults: FaultPlan = FaultPlan(), transcript: Transcript? = nil
    ) throws(SimulatorError) {
        let terminal = try PseudoTerminal()
        let wakeUp: WakeUpPipe
        do {
            wakeUp = try WakeUpPipe()
        } catch {
            terminal.close()
            throw SimulatorError(.wakeUpPipeFailed, "cannot create a pipe", osError: error.errno)
        }
        let deviceLink: DeviceLink?
        do throws(SimulatorError) {
            deviceLink = try link.map { path throws(SimulatorError) in
                try DeviceLink(path: path, target: terminal.slavePath)
            }
        } catch {
            wakeUp.close()
            terminal.close()
            throw error
        }
        let state = ServingState(terminal: terminal)
        let started = DedicatedThread.start {
            var loop = ServeLoop(
                terminal: terminal, device: device, state: state, wakeUp: wakeUp, link: deviceLink,
                faults: faults, transcript: transcript)
            loop.run()
        }
        guard started else {
            deviceLink?.remove()
            wakeUp.close()
            terminal.close()
            throw SimulatorError(.threadFailed, "cannot start the serving thread (out of threads?)")
        }
        self.device = device
        self.faults = faults
        self.linkPath = deviceLink?.path
        self.state = state
        self.wakeUp = wakeUp
    }

    deinit {
        stop()
        wakeUp.close()
    }

    /// Stops serving: closes the master (the client sees a hang-up; bytes it has not
    /// read yet are discarded by the kernel) and removes the link.
    ///
    /// Returns once the master is closed. Idempotent; safe from any thread except from
    /// inside a ``SimulatedDevice`` callback (the device asks for a hang-up instead).
    public func stop() {
        state.withLock { $0.isStopRequested = true }
        wakeUp.signal()
        state.waitUntilStopped()
    }

    /// Whether the simulator still serves: the master is open, or the device is away for
    /// a disconnect fault and will come back.
    public var isRunning: Bool {
        state.withLock { $0.isRunning }
    }

    /// Whether a client has the slave open, as last seen by the serving thread.
    public var isClientConnected: Bool {
        state.withLock { $0.isClientConnected }
    }

    /// The most bytes ``received`` keeps: 1 MiB.
    public static let receivedLimit = 1 << 20

    /// The bytes received from clients so far, in order — the last ``receivedLimit``
    /// bytes (for tests; `--log` records everything).
    public var received: [UInt8] {
        state.withLock { $0.received }
    }

    /// The slave's termios as the client has set it (`tcgetattr` on the master), e.g. to
    /// check that the client switched to raw mode and chose its baud rate; `nil` once
    /// stopped or while the device is away.
    public var clientAttributes: termios? {
        state.withLock { $0.terminal?.clientAttributes }
    }
}
