import TetherPresenter

/// ANSI SGR colours for the text view, or none.
struct TextStyle {
    let enabled: Bool

    func error(_ text: String) -> String { wrap(text, "31") }
    func success(_ text: String) -> String { wrap(text, "32") }
    func warning(_ text: String) -> String { wrap(text, "33") }
    func notification(_ text: String) -> String { wrap(text, Self.notificationCode) }
    /// A notification in its log level's colour: red for errors, yellow for warnings,
    /// dim for debug, the notification colour for info and for a line without a level.
    func notification(_ text: String, level: LogLevel?) -> String { wrap(text, Self.code(of: level)) }
    func dim(_ text: String) -> String { wrap(text, "2") }

    /// The SGR code of a notification's colour (cyan).
    static let notificationCode = "36"
    /// What starts the colour of a notification at `level` (``notification(_:level:)``).
    static func notificationStart(_ level: LogLevel?) -> String { "\u{1B}[\(code(of: level))m" }

    /// The SGR code of a notification at `level`.
    private static func code(of level: LogLevel?) -> String {
        switch level {
        case .error?: "31"
        case .warning?: "33"
        case .debug?: "2"
        case .info?, nil: notificationCode
        }
    }
    /// What ends a colour.
    static let end = "\u{1B}[0m"

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\(Self.end)" : text
    }
}
