/// Renders `--help` text from a ``CommandSpec`` in swift-argument-parser's layout
/// (OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS), each option's help with its
/// default from its declaration.
public enum HelpFormatter {
    /// The usage line: the spec's own, or e.g. `tether query <port> <command> ... [<options>]`.
    public static func usage(_ spec: CommandSpec) -> String {
        if let usage = spec.usage { return usage }
        var parts = [spec.commandName]
        for argument in spec.arguments {
            var text = "<\(argument.name)>"
            if argument.isVariadic { text += " ..." }
            if argument.isOptional { text = "[\(text)]" }
            parts.append(text)
        }
        if !spec.allOptions.isEmpty { parts.append("[<options>]") }
        return parts.joined(separator: " ")
    }

    /// The flag that shows every option.
    public static let helpAll = "--help-all"

    /// The whole help page; `subcommands` are listed under `SUBCOMMANDS:`. It shows the
    /// command's own options and its common sections; `showsAll` (`--help-all`) every
    /// section, and without it a last line says which sections `--help-all` adds.
    public static func help(_ spec: CommandSpec, subcommands: [CommandSpec] = [], showsAll: Bool = false) -> String {
        var text = "OVERVIEW: \(spec.abstract)\n"
        if !spec.discussion.isEmpty { text += "\n\(spec.discussion)\n" }
        text += "\nUSAGE: \(usage(spec))\n"
        if !spec.arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            text += table(spec.arguments.map { ("<\($0.name)>", $0.help) })
        }
        text += "\nOPTIONS:\n"
        var own = spec.options.map(row) + [("-h, --help", "Show help information.")]
        if spec.hasUncommonOptions { own.append((helpAll, "Show every option, the specialised ones too.")) }
        text += table(own)
        for section in spec.sections where showsAll || section.isCommon {
            text += "\n\(section.title):\n"
            text += table(section.options.map(row))
        }
        let more = spec.sections.filter { !$0.isCommon }
        if !showsAll && !more.isEmpty {
            let count = more.map(\.options.count).reduce(0, +)
            let titles = more.map { $0.title.lowercased() }.joined(separator: ", ")
            text += "\n'\(spec.commandName) \(helpAll)' shows \(count) more options:\n  \(titles).\n"
        }
        if !subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            text += table(subcommands.map { ($0.name, $0.abstract) })
            text += "\n  See '\(spec.program) help <subcommand>' for detailed help.\n"
        }
        if !spec.epilogue.isEmpty { text += "\n\(spec.epilogue)\n" }
        return text
    }

    /// `-b, --baud <rate>` and the help with its default.
    private static func row(_ option: OptionDeclaration) -> (String, String) {
        let names = option.names.reversed().map { name in option.valueName.map { "\(name) <\($0)>" } ?? name }
        return (names.joined(separator: ", "), option.fullHelp)
    }

    /// Two columns: the left indented by 2, the right from the column after the
    /// longest left cell (at most 32); a longer left cell puts its help on the next line.
    private static func table(_ rows: [(String, String)]) -> String {
        let width = min(30, (rows.map(\.0.count).max() ?? 0) + 2)
        let pad = String(repeating: " ", count: width + 2)
        return rows.map { left, right in
            let lines = right.split(separator: "\n", omittingEmptySubsequences: false)
            var text = "  " + left
            if left.count + 2 > width {
                text += "\n" + pad
            } else {
                text += String(repeating: " ", count: width - left.count)
            }
            return text + lines.joined(separator: "\n" + pad) + "\n"
        }.joined()
    }
}
