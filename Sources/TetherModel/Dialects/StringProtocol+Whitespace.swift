extension StringProtocol {
    /// The text without its leading and trailing spaces and tabs: the characters of
    /// Foundation's `CharacterSet.whitespaces` (Unicode category Zs, and U+0009), so
    /// the Model needs no full Foundation for it.
    public func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        guard let first = scalars.firstIndex(where: { !isWhitespace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isWhitespace($0) })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
