/// Renders `--help` text in swift-argument-parser's layout (OVERVIEW, USAGE,
/// ARGUMENTS, OPTIONS, SUBCOMMANDS).
enum HelpFormatter {
    /// The usage line, e.g. `tether query <port> <command> ... [--baud <rate>] …`.
    static func usage(_ spec: CommandSpec) -> String {
        if let usage = spec.usage { return usage }
        var parts = ["tether"] + (spec.name.isEmpty ? [] : [spec.name])
        for argument in spec.arguments {
            var text = "<\(argument.name)>"
            if argument.isVariadic { text += " ..." }
            if argument.isOptional { text = "[\(text)]" }
            parts.append(text)
        }
        if !spec.options.isEmpty { parts.append("[<options>]") }
        return parts.joined(separator: " ")
    }

    /// The whole help page.
    static func help(_ spec: CommandSpec, subcommands: [CommandSpec] = []) -> String {
        var text = "OVERVIEW: \(spec.abstract)\n"
        if !spec.discussion.isEmpty { text += "\n\(spec.discussion)\n" }
        text += "\nUSAGE: \(usage(spec))\n"
        if !spec.arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            text += table(spec.arguments.map { ("<\($0.name)>", $0.help) })
        }
        let options = spec.options.map { option in
            (
                option.names.reversed().map { name in
                    option.valueName.map { "\(name) <\($0)>" } ?? name
                }.joined(separator: ", "), option.help
            )
        }
        text += "\nOPTIONS:\n"
        text += table(options + [("-h, --help", "Show help information.")])
        if !subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            text += table(subcommands.map { ($0.name, $0.abstract) })
            text += "\n  See 'tether help <subcommand>' for detailed help.\n"
        }
        return text
    }

    private static func table(_ rows: [(String, String)]) -> String {
        let width = min(30, (rows.map(\.0.count).max() ?? 0) + 2)
        return rows.map { left, right in
            let lines = right.split(separator: "\n", omittingEmptySubsequences: false)
            let pad = String(repeating: " ", count: width + 2)
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
