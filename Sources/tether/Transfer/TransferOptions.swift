import TetherCommandLine
import TetherConnection
import TetherModel
import TetherTransfer

/// The options `send` and `receive` add to the connection's.
enum TransferOptions {
    static let transferProtocol = Option<TransferProtocol>(
        "--protocol", "-p", value: "protocol",
        help: "xmodem (128-byte blocks, checksum), xmodem-crc (CRC-16), xmodem-1k (1024-byte\n"
            + "blocks, CRC-16) or ymodem (batch of named files, as U-Boot's loady).", default: .ymodem,
        parse: Parse.choice(TransferProtocol.self))
    static let startTimeout = Option<Duration>(
        "--start-timeout", value: "duration",
        help: "How long the sender waits for the receiver's first C or NAK.",
        default: TransferLimits.defaultStartTimeout, range: .durations(.seconds(1), to: .seconds(3_600), bare: .seconds)
    )

    static let command = Option<[UInt8]?>(
        "--command", value: "command",
        help: "A command to type first, with the line end (--eol), escapes as in query:\n"
            + "'loady' or 'loadx' for U-Boot, 'rb' or 'sb FILE' for a shell with lrzsz.",
        parse: { text throws(InvalidValue) in
            if let problem = CommandText.problem(in: text) {
                throw .message("'--command': \(CommandText.message(problem, in: text))")
            }
            do throws(CommandText.EscapeError) {
                return try CommandText.bytes(fromEscaped: text)
            } catch {
                throw .message("'--command': \(error.description)")
            }
        })

    static let program = Option<String?>(
        "--program", value: "command",
        help: "Hand the port to this program instead (a shell command line; its standard\n"
            + "input and output on the port): 'sz' or 'rz' for ZMODEM (lrzsz). send\n"
            + "appends each <file>; receive runs it in <path>. Exit 76 when it fails.",
        parse: { text throws(InvalidValue) in
            guard !text.allSatisfy(\.isWhitespace) else { throw .message("'--program' needs a command, e.g. 'sz'") }
            return text
        })

    /// The options, for a command's ``CommandSpec``.
    static let options: [OptionDeclaration] = [
        transferProtocol.declaration, startTimeout.declaration, command.declaration, program.declaration,
    ]

    /// The limits asked for: the protocol reference's, with `--start-timeout`.
    static func limits(_ arguments: ParsedArguments) -> TransferLimits {
        TransferLimits(startTimeout: arguments[startTimeout])
    }

    /// The exit code for how a transfer ended (README, "Exit codes").
    static func exitCode(for outcome: TransferOutcome) -> ExitCode {
        switch outcome {
        case .completed: .success
        case .failed(.receiverNeverStarted), .failed(.senderNeverStarted): .timeout
        case .failed(.disconnected): .ioError
        case .failed(.cancelled): .interrupted
        case .failed(.cancelledByPeer), .failed(.tooManyRetries), .failed(.protocolViolation): .transferFailed
        }
    }
}
