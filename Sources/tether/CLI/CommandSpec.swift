/// The shape of one command: its arguments and options, for parsing and `--help`.
///
/// Written by hand in the style of swift-argument-parser (which cannot be a
/// dependency here): the same help sections, error wording and exit code 64.
struct CommandSpec {
    /// The command's name as typed after `tether` (empty for `tether` itself).
    var name: String
    /// One line for `OVERVIEW:` and the root's `SUBCOMMANDS:` list.
    var abstract: String
    /// Further paragraphs under the overview (examples, notes); may be empty.
    var discussion: String = ""
    /// Positional arguments, in order.
    var arguments: [ArgumentSpec] = []
    /// Options and flags.
    var options: [OptionSpec] = []
    /// A usage line to show instead of the generated one, e.g. when `--sim` replaces
    /// the port.
    var usage: String?

    /// The option with `name` (`--baud` or `-b`).
    func option(named name: String) -> OptionSpec? {
        options.first { $0.names.contains(name) }
    }
}

/// A positional argument.
struct ArgumentSpec {
    /// As shown in usage, e.g. `port`.
    var name: String
    /// Help text.
    var help: String
    /// Whether it takes every remaining argument.
    var isVariadic = false
    /// Whether it may be left out.
    var isOptional = false
}

/// An option (`--baud <rate>`) or a flag (`--sim`).
struct OptionSpec {
    /// Its spellings, long first, e.g. `["--format", "-f"]`.
    var names: [String]
    /// The value's placeholder, e.g. `rate`; `nil` for a flag.
    var valueName: String?
    /// Help text; say the default and the unit.
    var help: String
    /// Whether it may be given several times (values accumulate).
    var isRepeatable = false

    /// The long name, used as the key of parsed values.
    var key: String { names[0] }

    /// How it reads in usage and errors, e.g. `--baud <rate>`.
    var display: String { valueName.map { "\(key) <\($0)>" } ?? key }

    /// A flag (no value).
    static func flag(_ names: String..., help: String) -> OptionSpec {
        OptionSpec(names: names, valueName: nil, help: help)
    }

    /// An option with a value.
    static func value(_ names: String..., name: String, help: String, repeatable: Bool = false)
        -> OptionSpec
    {
        OptionSpec(names: names, valueName: name, help: help, isRepeatable: repeatable)
    }
}
