/// Renders a manual page (man(7) macros, section 1) from a ``CommandSpec``: the same
/// abstract, discussion, arguments and options as `--help`, so the two cannot drift.
///
/// NAME, SYNOPSIS, DESCRIPTION (the discussion), OPTIONS and each option section, then one
/// subsection per subcommand under COMMANDS (its own options, and the names of the
/// option groups it takes), each group's options once in a section of its own, the
/// epilogue, and SEE ALSO. Text is
/// escaped for roff (`\`, `-`, a `.` or `'` starting a line) and every character
/// beyond ASCII is written as a `\[uXXXX]` escape, so the page renders the same under
/// any input encoding (`groff -ww -man -Tutf8` gives no warning).
public enum ManPage {
    /// The page for `spec` and its `subcommands`.
    ///
    /// - Parameters:
    ///   - version: the footer's source, e.g. `tether 0.1.0`.
    ///   - seeAlso: other pages, e.g. `["tether-sim"]` (section 1).
    public static func render(
        _ spec: CommandSpec, subcommands: [CommandSpec] = [], version: String, seeAlso: [String] = []
    ) -> String {
        var page = """
            .TH \(escaped(spec.program.uppercased())) 1 "" "\(escaped(version))" "User Commands"
            .SH NAME
            \(escaped(spec.program)) \\- \(escaped(sentence(spec.abstract)))
            .SH SYNOPSIS
            .B \(escaped(HelpFormatter.usage(spec)))

            """
        if !spec.discussion.isEmpty { page += ".SH DESCRIPTION\n" + text(spec.discussion) }
        page += section(spec, heading: ".SH", includeHelp: true, includesSections: true)
        if !subcommands.isEmpty {
            page += ".SH COMMANDS\n"
            var groups: [OptionSection] = []
            for subcommand in subcommands {
                page += ".SS \(escaped(subcommand.commandName))\n" + text(subcommand.abstract)
                page += ".PP\n.B \(escaped(HelpFormatter.usage(subcommand)))\n"
                if !subcommand.discussion.isEmpty { page += text(subcommand.discussion) }
                page += section(subcommand, heading: ".PP\n.B", includeHelp: false, includesSections: false)
                if !subcommand.sections.isEmpty {
                    let titles = subcommand.sections.map(\.title).joined(separator: ", ")
                    page += ".PP\n" + line("And the options of: \(titles) (below).") + "\n"
                }
                for group in subcommand.sections where !groups.contains(where: { $0.title == group.title }) {
                    groups.append(group)
                }
                if !subcommand.epilogue.isEmpty { page += text(subcommand.epilogue) }
            }
            for group in groups {
                page += ".SH \"\(escaped(group.title))\"\n" + group.options.map(item).joined()
            }
        }
        if !spec.epilogue.isEmpty { page += ".SH NOTES\n" + text(spec.epilogue) }
        page += ".SH FILES\n" + text(documentation)
        if !seeAlso.isEmpty {
            page += ".SH SEE ALSO\n" + seeAlso.map { ".BR \(escaped($0)) (1)" }.joined(separator: ",\n") + "\n"
        }
        return page
    }

    /// Where the files this page names (`README.md`, `docs/…`, `Simulator/README.md`,
    /// `examples/…`) are once installed: `scripts/install` copies them under the prefix,
    /// keeping those names (the man page is not the only copy of the facts, and a path
    /// in it must lead somewhere on the machine that has the page).
    static let documentation = """
        The README.md, docs/*.md and Simulator/README.md files and the examples/
        scripts this page names are installed with it by scripts/install, under
        PREFIX/share/doc/tether (/usr/local/share/doc/tether, or
        ~/.local/share/doc/tether for a user); they are also at the top of tether's
        source tree.
        """

    /// Arguments, options and (`includesSections`) option sections, each under
    /// `heading` (`.SH` for the page, a bold line for a subcommand); `includeHelp` adds
    /// `-h, --help`.
    private static func section(_ spec: CommandSpec, heading: String, includeHelp: Bool, includesSections: Bool)
        -> String
    {
        var page = ""
        if !spec.arguments.isEmpty {
            page += "\(heading) ARGUMENTS\n"
            for argument in spec.arguments {
                page += ".TP\n.I \(escaped(argument.name))\n" + filled(argument.help)
            }
        }
        page += "\(heading) OPTIONS\n"
        page += spec.options.map(item).joined()
        if includeHelp {
            page += ".TP\n.B \\-h, \\-\\-help\nShow help information.\n"
            page += ".TP\n.B \\-\\-help\\-all\nShow a command's every option, the specialised ones too.\n"
        }
        for group in spec.sections where includesSections {
            page += "\(heading) \"\(escaped(group.title))\"\n" + group.options.map(item).joined()
        }
        return page
    }

    /// `.TP` with `-b, --baud rate` (names bold, the placeholder italic) and the help
    /// with its default.
    private static func item(_ option: OptionDeclaration) -> String {
        let names = option.names.reversed().map { "\\fB\(escaped($0))\\fR" }.joined(separator: ", ")
        let value = option.valueName.map { " \\fI\(escaped($0))\\fR" } ?? ""
        return ".TP\n\(names)\(value)\n" + filled(option.fullHelp)
    }

    /// Help text, its lines broken by hand, as one filled paragraph.
    private static func filled(_ help: String) -> String {
        help.split(separator: "\n").map { line(String($0).trimmingBlanks) }.joined(separator: "\n") + "\n"
    }

    /// Paragraphs (split at blank lines): indented lines (examples, tables) kept as
    /// they are, the others filled; a line like `EXAMPLES:` bold.
    private static func text(_ text: String) -> String {
        var page = ""
        for paragraph in text.split(separator: "\n\n", omittingEmptySubsequences: true) {
            page += ".PP\n"
            var verbatim = false
            for rawLine in paragraph.split(separator: "\n", omittingEmptySubsequences: false) {
                let isIndented = rawLine.first == " "
                if isIndented != verbatim {
                    page += isIndented ? ".RS 2\n.nf\n" : ".fi\n.RE\n"
                    verbatim = isIndented
                }
                // Verbatim lines keep their indentation beyond the paragraph's two spaces.
                let content = isIndented ? String(rawLine.dropFirst(2)) : String(rawLine).trimmingBlanks
                if !isIndented, content.hasSuffix(":"), content == content.uppercased() {
                    page += ".B \(escaped(content))\n.br\n"
                } else {
                    page += line(content) + "\n"
                }
            }
            if verbatim { page += ".fi\n.RE\n" }
        }
        return page
    }

    /// One line of text: escaped, with `\&` before a leading `.` or `'` (a request).
    private static func line(_ text: String) -> String {
        let line = escaped(text)
        return line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }

    /// `text` for roff: `\` as `\e`, `-` as `\-` (options copy as typed), beyond ASCII
    /// as `\[uXXXX]`.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case _ where !scalar.isASCII:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\[u\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)]"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// An abstract as NAME's description: without its final period.
    private static func sentence(_ abstract: String) -> String {
        abstract.hasSuffix(".") ? String(abstract.dropLast()) : abstract
    }
}

extension String {
    /// Without leading and trailing spaces.
    fileprivate var trimmingBlanks: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
