import Glibc
import TetherCommandLine
import TetherConnection
import TetherModel
import TetherSerial

/// `send` and `receive` with `--program`: the port opened as for a transfer (settings,
/// lock), `--command` typed, then handed to the program (``ExternalProgram``) until it
/// ends, and closed.
enum ProgramTransfer {
    /// Runs `program` on the port `options` name, with `arguments` after it (`send`'s
    /// files), in `folder` (`receive`'s; `nil`: the current one).
    ///
    /// - Returns: 0 when the program exited 0; the signal's code when one ended tether's wait.
    /// - Throws: ``UsageError`` for `--sim`, a `tcp://` or `rfc2217://` port, or
    ///   `--protocol` with `--program`; ``CommandFailure`` for a port that cannot be
    ///   opened, and for the program's failure (``ExternalProgram/exitCode(for:of:)``).
    static func run(
        _ program: String, arguments: [String], in folder: String?, options: ConnectionOptions,
        parsed: ParsedArguments
    ) async throws -> ExitCode {
        if options.usesSimulator {
            throw UsageError("'--program' needs a serial port; the simulator speaks XMODEM and YMODEM only")
        }
        if options.address?.isRemote == true {
            throw UsageError(
                "'--program' needs a local serial port (a device path); a tcp:// or rfc2217:// port cannot be handed to a program"
            )
        }
        if parsed.isGiven(TransferOptions.transferProtocol.declaration) {
            throw UsageError("'--protocol' and '--program' do not go together: the program speaks its own protocol")
        }
        let connection = try await Connection(options)
        let descriptor = connection.transport.descriptor
        ExternalProgram.makeBlocking(descriptor)
        if let command = parsed[TransferOptions.command] {
            writeAll(connection.device.dialect.encode(command), to: descriptor)
        }
        let (end, signal) = try await ExternalProgram.run(program, arguments: arguments, on: connection, in: folder)
        if let signal { return SignalTrap.exitCode(for: signal) }
        let (code, message) = ExternalProgram.exitCode(for: end, of: program)
        if let message { throw CommandFailure(message, code: code) }
        return code
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
