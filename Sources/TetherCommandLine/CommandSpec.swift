/// The shape of one command: its arguments and options, for parsing and `--help`, in
/// the style of swift-argument-parser (the same help sections and error wording).
public struct CommandSpec: Sendable {
    /// The program, e.g. `tether` or `tether-sim`.
    public var program: String
    /// The subcommand as typed after the program; empty for the program itself.
    public var name: String
    /// One line for `OVERVIEW:` and a parent's `SUBCOMMANDS:` list.
    public var abstract: String
    /// Paragraphs under the overview (examples, notes); may be empty.
    public var discussion: String
    /// Positional arguments, in order.
    public var arguments: [ArgumentSpec]
    /// Its own options and flags, under `OPTIONS:`.
    public var options: [OptionDeclaration]
    /// The option groups it takes and its further sections, each under its heading
    /// after `OPTIONS:` (`--help` shows the common ones, `--help-all` every one).
    public var sections: [OptionSection]
    /// A usage line to show instead of the generated one, e.g. when `--sim` replaces
    /// the port.
    public var usage: String?
    /// Text after the options (examples); may be empty.
    public var epilogue: String
    /// Messages for unknown options that users are known to try, by name, e.g.
    /// `--port` where the port is an argument.
    public var unknownOptionMessages: [String: String]

    public init(
        program: String, name: String = "", abstract: String, discussion: String = "",
        arguments: [ArgumentSpec] = [], options: [OptionDeclaration] = [], groups: [any OptionGroup.Type] = [],
        sections: [OptionSection] = [], usage: String? = nil, epilogue: String = "",
        unknownOptionMessages: [String: String] = [:]
    ) {
        self.program = program
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.sections = groups.map { $0.section } + sections
        self.usage = usage
        self.epilogue = epilogue
        self.unknownOptionMessages = unknownOptionMessages
    }

    /// The command as typed, e.g. `tether query`.
    public var commandName: String { name.isEmpty ? program : "\(program) \(name)" }

    /// Every option of every section.
    public var allOptions: [OptionDeclaration] { options + sections.flatMap(\.options) }

    /// Whether it has options only `--help-all` shows.
    public var hasUncommonOptions: Bool { sections.contains { !$0.isCommon } }

    /// The option spelled `name` (`--baud` or `-b`).
    public func option(named name: String) -> OptionDeclaration? {
        allOptions.first { $0.names.contains(name) }
    }

    /// Whether the command takes `option`.
    public func takes(_ declaration: OptionDeclaration) -> Bool { option(named: declaration.key) != nil }
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
    /// As shown in usage, e.g. `port`.
    public var name: String
    /// Help text.
    public var help: String
    /// Whether it takes every remaining argument.
    public var isVariadic: Bool
    /// Whether it may be left out.
    public var isOptional: Bool
    /// The values it takes when they are a fixed few, for shell completion; empty when
    /// any value goes.
    public var choices: [String]

    public init(
        name: String, help: String, isVariadic: Bool = false, isOptional: Bool = false, choices: [String] = []
    ) {
        self.name = name
        self.help = help
        self.isVariadic = isVariadic
        self.isOptional = isOptional
        self.choices = choices
    }

    /// Whether it may be a file's path, for shell completion: a `port`, `script`,
    /// `file` or `path`.
    public var takesPath: Bool { ["port", "script", "file", "path"].contains(name) }
}
