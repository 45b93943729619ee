/// Parsers for the usual kinds of option value, for ``Option``'s `parse:`.
public enum Parse {
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
}
