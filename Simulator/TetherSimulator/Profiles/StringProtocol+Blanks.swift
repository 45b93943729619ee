extension StringProtocol {
    /// The text without its leading and trailing blanks: tabs and Unicode's space
    /// separators (U+0020, U+00A0, U+3000, …) — what a profiled device ignores around a
    /// command, as Foundation's `CharacterSet.whitespaces` trims.
    func trimmingBlanks() -> String {
        let scalars = String(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isBlank }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.isBlank })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

extension Unicode.Scalar {
    /// A tab or a space separator (general category Zs).
    fileprivate var isBlank: Bool {
        self == "\t" || properties.generalCategory == .spaceSeparator
    }
}
