import TetherCommandLine
import TetherConnection
import TetherLibC
import TetherSimulator
import TetherTransfer
import TetherViews

/// `tether receive`: files from a device by XMODEM or YMODEM.
enum ReceiveCommand: Command {
    static let overwrite = Flag(
        "--overwrite",
        help: "Replace existing files; without it a file that exists is kept and\n"
            + "the one received is written as NAME.1, NAME.2…")

    /// What `receive --sim` receives: 64 KiB from the simulator.
    static let simulatorFile = TransferFile(
        name: "tether-sim.bin", data: (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })

    static let spec = CommandSpec(
        program: "tether", name: "receive",
        abstract: "Receive files from a device by XMODEM or YMODEM.",
        discussion: """
            Asks the sender to start (C, or NAK for xmodem) every 10 s, 10 times, then
            takes the files: ymodem writes each under its own name (no folders) in
            <path>, a folder (default: the current one); xmodem writes one file to
            <path>, or to \(LocalFile.unnamedFile) in it when it is a folder. XMODEM carries no
            size: its file keeps the last block's padding (0x1A). Progress as for
            'send'; Ctrl-C cancels with CAN CAN. With --sim the simulator sends
            tether-sim.bin (64 KiB). --program hands the port to another program
            instead, run in <path> (ZMODEM: 'rz').

            EXAMPLES:
              tether receive /dev/ttyUSB0 dumps/            (then 'sb file' on the device)
              tether receive /dev/ttyUSB0 --command 'sb log.txt' dumps/
              tether receive /dev/ttyUSB0 -p xmodem-crc log.bin
              tether receive --sim /tmp
              tether receive /dev/ttyUSB0 dumps/ --program 'rz'   (ZMODEM, lrzsz)

            EXIT CODES:
              0 received, 64 usage error, 66 port not found, 73 a file cannot be
              written, 74 the device disconnected, 75 the sender never started,
              76 the sender cancelled, too many retries or a protocol error
              (--program: the program failed; 69 it cannot be found or run),
              130 interrupted (Ctrl-C).
            """,
        arguments: [
            ArgumentSpec(name: "port", help: ConnectionOptions.portHelp),
            ArgumentSpec(name: "path", help: "Where to write (see above).", isOptional: true),
        ],
        options: TransferOptions.options + [
            overwrite.declaration, ConnectionOptions.format(showing: .transfer).declaration,
        ],
        groups: ConnectionOptions.sendingGroups(),
        usage: "tether receive (<port> | --sim) [<path>] [<options>]"
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let (options, rest) = try ConnectionOptions.withPortFirst(arguments)
        guard rest.count <= 1 else { throw UsageError("Unexpected argument \(Quoted(rest[1]))") }
        if let program = arguments[TransferOptions.program] {
            let folder = rest.first ?? "."
            guard LocalFile.isDirectory(folder) else {
                throw CommandFailure(
                    "cannot run \(Quoted(program)) in \(Quoted(folder)): no such folder", code: .cannotCreateLog)
            }
            return try await ProgramTransfer.run(
                program, arguments: [], in: folder, options: options, parsed: arguments)
        }
        let kind = arguments[TransferOptions.transferProtocol]
        let path = rest.first ?? "."
        let folder = LocalFile.folder(receiving: kind, at: path)
        guard LocalFile.isDirectory(folder) else {
            throw CommandFailure("cannot write in \(Quoted(folder)): no such folder", code: .cannotCreateLog)
        }
        do throws(LocalFile.Failure) { try LocalFile.checkWritable(folder: folder) } catch {
            throw CommandFailure(error)
        }
        let peer =
            options.usesSimulator
            ? TransferPeer(TransferSender(kind, files: [simulatorFile], limits: TransferOptions.limits(arguments)))
            : nil
        let view = try options.view(.transfer)
        let connection = try await Connection(options, peer: peer)
        let result = try await TransferRun.run(
            TransferReceiver(kind), on: connection, direction: "receive", protocol: kind, view: view,
            command: arguments[TransferOptions.command])
        for file in result.received {
            do throws(LocalFile.Failure) {
                _ = try LocalFile.write(file, receivedBy: kind, at: path, overwrites: arguments[overwrite])
            } catch {
                throw CommandFailure(error)
            }
        }
        return result.code
    }
}
