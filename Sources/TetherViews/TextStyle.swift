/// ANSI SGR colours for the text view, or none.
struct TextStyle {
    let enabled: Bool

    func error(_ text: String) -> String { wrap(text, "31") }
    func success(_ text: String) -> String { wrap(text, "32") }
    func warning(_ text: String) -> String { wrap(text, "33") }
    func notification(_ text: String) -> String { wrap(text, Self.notificationCode) }
    func dim(_ text: String) -> String { wrap(text, "2") }

    /// The SGR code of a notification's colour (cyan).
    static let notificationCode = "36"
    /// What starts a notification's colour.
    static let notificationStart = "\u{1B}[\(notificationCode)m"
    /// What ends a colour.
    static let end = "\u{1B}[0m"

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\(Self.end)" : text
    }
}
