import Foundation
import Testing

/// `tether completion bash|zsh|fish` (and tether-sim's hidden `--generate-completion`):
/// each script loads in its shell and completes a subcommand, an option and a
/// `--dialect` value.
@Suite struct ShellCompletionEndToEndTests {
    /// The script `program` prints for `shell`, in a file.
    static func script(_ shell: String, of program: String, in folder: TemporaryFolder, name: String) throws
        -> String
    {
        let arguments = program == "tether" ? ["completion", shell] : ["--generate-completion", shell]
        let result = try Subprocess.run(program, arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let path = folder.path(name)
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The words bash's completion function offers for the command line `line` (the
    /// last word being completed), as `complete -F` calls it.
    static func bash(_ script: String, _ line: String, function: String = "_tether") throws -> [String] {
        let result = try Subprocess.run(
            path: "/usr/bin/env",
            [
                "bash", "--norc", "--noprofile", "-c",
                """
                source "$1"; read -ra COMP_WORDS <<<"$2"; [[ "$2" == *" " ]] && COMP_WORDS+=("")
                COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); \(function); printf '%s\\n' "${COMPREPLY[@]}"
                """, "bash", script, line,
            ])
        #expect(result.stderr == "", "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// What fish's `complete -C` offers for `line`, the words only.
    static func fish(_ script: String, _ line: String) throws -> [String] {
        let result = try Subprocess.run(
            path: "/usr/bin/env", ["fish", "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script, line])
        #expect(result.stderr == "", "\(result.stderr)")
        return result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }

    /// What `shell` offers for the command line `line` with `program`'s script loaded.
    static func complete(_ shell: String, _ program: String, _ line: String, folder: TemporaryFolder) throws
        -> [String]
    {
        let script = try Self.script(shell, of: program, in: folder, name: "\(program).\(shell)")
        return shell == "bash"
            ? try bash(script, line, function: program == "tether" ? "_tether" : "_tether_sim") : try fish(script, line)
    }

    /// bash and fish complete without a terminal: bash's function called as `complete -F`
    /// would, fish's `complete -C`.
    @Test(arguments: ["bash", "fish"])
    func completesSubcommandsOptionsAndDialects(shell: String) throws {
        let folder = try TemporaryFolder()
        #expect(try Self.complete(shell, "tether", "tether qu", folder: folder) == ["query"])
        #expect(try Self.complete(shell, "tether", "tether query --dia", folder: folder) == ["--dialect"])
        let dialects = try Self.complete(shell, "tether", "tether query --sim --dialect ", folder: folder)
        #expect(dialects.sorted() == ["at", "line", "nmea", "prompt", "scpi"])
        #expect(try Self.complete(shell, "tether", "tether run x.txt --dialect sc", folder: folder) == ["scpi"])
        #expect(try Self.complete(shell, "tether", "tether completion f", folder: folder) == ["fish"])
        #expect(try Self.complete(shell, "tether-sim", "tether-sim --profile at-", folder: folder) == ["at-modem"])
    }

    @Test(arguments: [
        (["completion", "csh"], "Error: Unknown shell 'csh'; expected one of 'bash', 'zsh', 'fish'"),
        (["completion"], "Error: Missing <shell>: one of 'bash', 'zsh', 'fish'"),
        (["completion", "bash", "zsh"], "Error: Unexpected argument 'zsh'"),
    ])
    func aBadShellIsAUsageError(arguments: [String], message: String) throws {
        let result = try Subprocess.run("tether", arguments)
        #expect(result.status == 64)
        #expect(result.stderr == message + " (see 'tether completion --help')\n")
    }

    /// zsh completes only inside its line editor: an interactive `zsh -f` in tmux, the
    /// script on `fpath` as `_tether` (as scripts/install puts it), Tab pressed.
    @Test func zshCompletesSubcommandsOptionsAndDialects() throws {
        let folder = try TemporaryFolder()
        _ = try Self.script("zsh", of: "tether", in: folder, name: "_tether")
        _ = try Self.script("zsh", of: "tether-sim", in: folder, name: "_tether-sim")
        let tmux = try Tmux(
            "PATH=\(Tmux.quoted(Subprocess.productsDirectory.path)):$PATH zsh -f -i", columns: 120, rows: 20)
        tmux.type(
            "PS1='> '; fpath=(\(Tmux.quoted(folder.url.path)) $fpath); autoload -Uz compinit; compinit -u -D; clear\n")
        #expect(tmux.waitForScreen { $0.first == ">" } != nil, "\(tmux.capture())")
        tmux.type("tether qu")
        tmux.send("Tab")
        #expect(tmux.waitForScreen { $0.first == "> tether query" } != nil, "\(tmux.capture())")
        tmux.type("--dia")
        tmux.send("Tab")
        #expect(tmux.waitForScreen { $0.first == "> tether query --dialect" } != nil, "\(tmux.capture())")
        tmux.type("sc")
        tmux.send("Tab")
        #expect(tmux.waitForScreen { $0.first == "> tether query --dialect scpi" } != nil, "\(tmux.capture())")
        tmux.send("C-u")
        tmux.type("tether-sim --profile at-")
        tmux.send("Tab")
        #expect(tmux.waitForScreen { $0.first == "> tether-sim --profile at-modem" } != nil, "\(tmux.capture())")
    }
}
