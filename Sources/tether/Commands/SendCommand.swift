import TetherCommandLine
import TetherConnection
import TetherSimulator
import TetherTransfer
import TetherViews

/// `tether send`: files to a device by XMODEM or YMODEM.
enum SendCommand: Command {
    static let spec = CommandSpec(
        program: "tether", name: "send",
        abstract: "Send files to a device by XMODEM or YMODEM (a bootloader's loadx, loady).",
        discussion: """
            Waits for the receiver's first request (C, or NAK for xmodem) for up to
            --start-timeout, then sends each <file> (ymodem: a batch of any
            number, with name and size; xmodem: exactly one). A progress bar shows on a
            terminal (--format json: 'transfer' records); Ctrl-C cancels with CAN CAN.
            The limits (10 retries a block, 10 s for an answer) are in docs/TRANSFERS.md.
            With --sim the simulator receives the files (its --drop, --duplicate and
            --garbage faults make the line noisy). --program hands the port to another
            program instead, with each <file> after it (ZMODEM: 'sz').

            EXAMPLES:
              tether send /dev/ttyUSB0 --baud 115200 u-boot.img       (after 'loady')
              tether send /dev/ttyUSB0 --command 'loady 0x40200000' u-boot.img
              tether send /dev/ttyUSB0 -p xmodem-1k firmware.bin
              tether send --sim -p ymodem a.bin b.bin
              tether send /dev/ttyUSB0 --program 'sz' a.bin      (ZMODEM, lrzsz)

            EXIT CODES:
              0 sent, 64 usage error, 66 a file missing or unreadable (or the port not
              found), 74 the device disconnected, 75 the receiver never started,
              76 the receiver cancelled, too many retries or a protocol error
              (--program: the program failed; 69 it cannot be found or run),
              130 interrupted (Ctrl-C).
            """,
        arguments: [
            ArgumentSpec(name: "port", help: ConnectionOptions.portHelp),
            ArgumentSpec(name: "file", help: "A file to send.", isVariadic: true),
        ],
        options: TransferOptions.options + [ConnectionOptions.format(showing: .transfer).declaration],
        groups: ConnectionOptions.sendingGroups(),
        usage: "tether send (<port> | --sim) <file> ... [<options>]"
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let (options, paths) = try ConnectionOptions.withPortFirst(arguments)
        guard !paths.isEmpty else { throw UsageError("Missing expected argument '<file> ...'") }
        if let program = arguments[TransferOptions.program] {
            return try await ProgramTransfer.run(
                program, arguments: paths, in: nil, options: options, parsed: arguments)
        }
        let kind = arguments[TransferOptions.transferProtocol]
        if !kind.isBatch && paths.count > 1 {
            throw UsageError("\(kind.name) sends one file; give one <file>, or use '--protocol ymodem' for several")
        }
        if paths.contains("") { throw UsageError("A file path is empty; give the path of each file to send") }
        let files = try paths.map { (path) throws(CommandFailure) in
            do throws(LocalFile.Failure) { return try LocalFile.read(path) } catch { throw CommandFailure(error) }
        }
        let limits = TransferOptions.limits(arguments)
        let peer = options.usesSimulator ? TransferPeer(TransferReceiver(kind)) : nil
        let view = try options.view(.transfer)
        let connection = try await Connection(options, peer: peer)
        let result = try await TransferRun.run(
            TransferSender(kind, files: files, limits: limits), on: connection, direction: "send", protocol: kind,
            view: view, command: arguments[TransferOptions.command])
        return result.code
    }
}
