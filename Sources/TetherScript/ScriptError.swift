import TetherPresenter

/// A script that cannot run: a query file line that does not parse, a Lua syntax
/// error, an unknown device name. Found before any port is opened.
public struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where, when known.
    public var location: SourceLocation?
    /// What is wrong, without the location.
    public var message: String

    /// Creates an error.
    public init(at location: SourceLocation?, _ message: String) {
        self.location = location
        self.message = message
    }

    /// `file:line: message`, as compilers write it.
    public var description: String { location.map { "\($0): \(message)" } ?? message }
}
