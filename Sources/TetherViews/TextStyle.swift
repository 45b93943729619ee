/// ANSI SGR colours for the text view, or none.
struct TextStyle {
    let enabled: Bool

    func error(_ text: String) -> String { wrap(text, "31") }
    func success(_ text: String) -> String { wrap(text, "32") }
    func warning(_ text: String) -> String { wrap(text, "33") }
    func notification(_ text: String) -> String { wrap(text, "36") }
    func dim(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
