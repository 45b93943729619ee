import TetherCommandLine
import TetherConnection

/// One `tether` subcommand.
protocol Command: Sendable {
    /// Its name, arguments, options and help.
    static var spec: CommandSpec { get }
    /// Runs it with parsed arguments.
    ///
    /// - Returns: the exit code.
    /// - Throws: ``UsageError`` or ``CommandFailure``.
    static func run(_ arguments: ParsedArguments) async throws -> ExitCode
}
