import TetherCommandLine
import TetherConnection
import TetherLibC
import TetherViews

/// `tether completion <shell>`: prints tether's completion script for bash, zsh or fish,
/// generated from the same option declarations as `--help`.
enum CompletionCommand: Command {
    static let spec = CommandSpec(
        program: "tether", name: "completion",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            Completes the subcommands, their options and the values of options such as
            --dialect. scripts/install installs the scripts where the shells look; to load
            one by hand:
              source <(tether completion bash)                      # e.g. in ~/.bashrc
              tether completion zsh > ~/.zfunc/_tether              # a folder on fpath
              tether completion fish > ~/.config/fish/completions/tether.fish
            """,
        arguments: [ArgumentSpec(name: "shell", help: "bash, zsh or fish.", choices: Shell.allCases.map(\.rawValue))]
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let shells = Shell.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        guard let name = arguments.positionals.first else { throw UsageError("Missing <shell>: one of \(shells)") }
        guard let shell = Shell(rawValue: name) else {
            throw UsageError("Unknown shell \(Quoted(name)); expected one of \(shells)")
        }
        if let extra = arguments.positionals.dropFirst().first {
            throw UsageError("Unexpected argument \(Quoted(extra))")
        }
        FileSink.standardOutput.write(
            ShellCompletion.script(shell, for: Tether.spec, subcommands: Tether.commands.map { $0.spec }))
        return .success
    }
}
