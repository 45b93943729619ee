/// A transfer that types a command to the device first — a bootloader's `loady`, a
/// shell's `rb` or `sb FILE` — and then runs `machine`.
///
/// ``start(now:)`` writes ``command`` (exact bytes, the line end included) before
/// anything of the machine's; everything else is the machine's. What the device
/// echoes of the command, and the banner it prints, reach the machine, which ignores
/// every byte before the receiver's first request (``TransferSender``) or the first
/// block (``TransferReceiver``). The machine's ``TransferLimits/startTimeout`` runs
/// from the same start.
public struct CommandedTransfer<Machine: TransferMachine>: TransferMachine {
    /// The bytes typed first (e.g. `loady 0x40200000\r`).
    public let command: [UInt8]
    /// The transfer run after it.
    public private(set) var machine: Machine

    /// A transfer that writes `command` and then runs `machine`.
    public init(command: [UInt8], then machine: Machine) {
        self.command = command
        self.machine = machine
    }

    public var nextDeadline: ContinuousClock.Instant? { machine.nextDeadline }

    public var isFinished: Bool { machine.isFinished }

    public mutating func start(now: ContinuousClock.Instant) -> [TransferAction] {
        [.write(command)] + machine.start(now: now)
    }

    public mutating func receive(_ bytes: [UInt8], now: ContinuousClock.Instant) -> [TransferAction] {
        machine.receive(bytes, now: now)
    }

    public mutating func expire(now: ContinuousClock.Instant) -> [TransferAction] {
        machine.expire(now: now)
    }

    public mutating func cancel(now: ContinuousClock.Instant) -> [TransferAction] {
        machine.cancel(now: now)
    }
}
