import TetherLibC

/// A mistake in a device profile: which file, which field, and what was expected.
///
/// `description` reads `<file>: <field>: <message>`, e.g.
/// `bad.json: commands[3].reply: unknown property 'tmp' in '{tmp}'; expected one of …`.
/// For JSON syntax errors the field is `line L, column C` when Foundation reports where.
public struct ProfileError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The profile's file name as given (or `built-in 'NAME'`).
    public let file: String
    /// The field, as a path from the top of the document (`commands[3].reply`), or the
    /// position of a syntax error; empty for the whole document.
    public let field: String
    /// What is wrong and what was expected.
    public let message: String

    /// Creates an error from its parts.
    public init(file: String, field: String, message: String) {
        self.file = file
        self.field = field
        self.message = message
    }

    public var description: String {
        // A built-in's name is quoted already; a file's path is the user's, cut short.
        let file = file.hasPrefix("built-in ") ? file : Quoted(file).bare
        return field.isEmpty ? "\(file): \(message)" : "\(file): \(field): \(message)"
    }
}
