/// A command line that cannot be run; tether prints it with the usage and exits 64.
struct UsageError: Error, Equatable {
    /// The message after `Error: `.
    var message: String

    init(_ message: String) { self.message = message }

    /// `The value 'abc' is invalid for '--baud <rate>'. <expected>`
    static func invalidValue(_ value: String, for option: OptionSpec, expected: String) -> UsageError {
        UsageError("The value '\(value)' is invalid for '\(option.display)'. \(expected)")
    }
}
