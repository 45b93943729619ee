/// How typed keys reach the device in `connect` (`--mode`, switched with the escape
/// key's `m`).
public enum ConsoleMode: String, CaseIterable, Sendable {
    /// Every key as typed (picocom/tio): Ctrl-C, Tab and arrows included; received
    /// bytes are shown as they arrive.
    case raw
    /// Line editing and history; Enter sends the line; replies and notifications are
    /// shown as records.
    case line
}
