/// A script as the user gave it: its name for messages, its text and its language.
public struct Script: Sendable, Equatable {
    /// What the text is written in.
    public enum Language: String, Sendable, Equatable {
        /// A query file: one command per line with optional expectations
        /// (`docs/SCRIPTING.md`).
        case queries
        /// Lua 5.4.
        case lua
    }

    /// The name used in `file:line` locations: the path as typed, or `stdin`.
    public var name: String
    /// The script's text.
    public var text: String
    /// Its language.
    public var language: Language

    /// Creates a script.
    public init(name: String, text: String, language: Language) {
        self.name = name
        self.text = text
        self.language = language
    }

    /// The language of a file named `fileName`: Lua for a `.lua` name (any letter
    /// case), a query file otherwise.
    public static func language(ofFileNamed fileName: String) -> Language {
        fileName.lowercased().hasSuffix(".lua") ? .lua : .queries
    }
}
