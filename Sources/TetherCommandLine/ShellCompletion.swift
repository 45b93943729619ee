/// A shell that ``ShellCompletion`` writes a completion script for.
public enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
}

/// Shell completion scripts generated from a program's ``CommandSpec``s — the option
/// declarations that also give `--help`, so the two cannot drift.
///
/// Each completes the subcommands (and `help <subcommand>`), each command's options,
/// an option's value from its ``OptionDeclaration/choices`` (files too when it
/// ``OptionDeclaration/takesPath``), and arguments that take a path or a choice.
public enum ShellCompletion {
    /// The script for `shell`: load it with `source` (bash, zsh after `compinit`, fish)
    /// or install it where the shell looks (bash-completion's `completions/`, a folder
    /// on zsh's `fpath` as `_PROGRAM`, fish's `vendor_completions.d/PROGRAM.fish`).
    public static func script(_ shell: Shell, for spec: CommandSpec, subcommands: [CommandSpec] = []) -> String {
        switch shell {
        case .bash: BashCompletion.script(spec, subcommands: subcommands)
        case .zsh: ZshCompletion.script(spec, subcommands: subcommands)
        case .fish: FishCompletion.script(spec, subcommands: subcommands)
        }
    }

    /// Every option `spec` takes, `--help` included (and `--help-all` where it shows more).
    static func options(of spec: CommandSpec) -> [OptionDeclaration] {
        spec.allOptions + [Flag("--help", "-h", help: "Show help information.").declaration]
            + (spec.hasUncommonOptions
                ? [Flag(HelpFormatter.helpAll, help: "Show every option, the specialised ones too.").declaration] : [])
    }

    /// The first sentence of `help` (its lines joined), at most about 70 characters,
    /// for a one-line description.
    static func summary(_ help: String) -> String {
        var text = help.split(separator: "\n").joined(separator: " ")
        if let end = text.firstRange(of: ". ") { text = String(text[..<end.lowerBound]) }
        if text.hasSuffix(".") { text.removeLast() }
        guard text.count > 70 else { return text }
        let cut = text.prefix(70)
        return String(cut[..<(cut.lastIndex(of: " ") ?? cut.endIndex)]) + "…"
    }

    /// `word` quoted for a POSIX shell (bash, zsh): in single quotes.
    static func quoted(_ word: String) -> String {
        "'" + word.replacing("'", with: "'\\''") + "'"
    }

    /// The name of a shell function for `program`: `_tether_sim` for `tether-sim`.
    static func functionName(_ program: String) -> String {
        "_" + program.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
    }
}
