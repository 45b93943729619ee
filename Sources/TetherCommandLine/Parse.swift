/// Parsers for the usual kinds of option value, for ``Option``'s `parse:`.
public enum Parse {
    /// A whole number in `range`, else ``InvalidValue`` with `advice`.
    public static func integer(
        _ range: some RangeExpression<Int> & Sendable, _ advice: InvalidValue
    ) -> @Sendable (String) throws(InvalidValue) -> Int {
        { text throws(InvalidValue) in
            guard let number = Int(text), range.contains(number) else { throw advice }
            return number
        }
    }

    /// One of `T`'s raw values, in any letter case, else `Please provide one of 'a', 'b'.`
    public static func choice<T: RawRepresentable<String> & CaseIterable & SendableMetatype>(
        _ type: T.Type
    ) -> @Sendable (String) throws(InvalidValue) -> T {
        // The advice is written when a value is refused, not when the option is declared.
        { text throws(InvalidValue) in
            guard let value = T(rawValue: text.lowercased()) else {
                throw InvalidValue(
                    "Please provide one of \(T.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")).")
            }
            return value
        }
    }

    /// The text as given, unless it is empty: then ``InvalidValue`` with `advice`.
    public static func nonEmpty(_ advice: InvalidValue) -> @Sendable (String) throws(InvalidValue) -> String {
        { text throws(InvalidValue) in
            guard !text.isEmpty else { throw advice }
            return text
        }
    }

    /// Any text, even empty.
    public static let text: @Sendable (String) throws(InvalidValue) -> String = { $0 }

    /// The longest duration ``seconds`` accepts, in seconds (about 31 years): longer
    /// ones would overflow `Duration`.
    public static let longestSeconds = 1e9

    /// A number of seconds (decimals allowed) greater than 0, at most
    /// ``longestSeconds``, as a duration rounded to the millisecond.
    public static let seconds: @Sendable (String) throws(InvalidValue) -> Duration = { text throws(InvalidValue) in
        guard let seconds = Double(text), seconds > 0, seconds <= longestSeconds else {
            throw InvalidValue("Please provide a number of seconds greater than 0, at most 1e9.")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
