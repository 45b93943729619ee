/// One of the ``DialectSettings``, to say which a ``DialectKind`` takes.
///
/// The order is the order in which settings a dialect does not take are reported.
public enum DialectSetting: String, Sendable, CaseIterable {
    /// ``DialectSettings/unsolicitedPrefixes`` (`--urc`).
    case unsolicitedPrefixes
    /// ``DialectSettings/extraSuccessCodes`` (`--final-ok`).
    case extraSuccessCodes
    /// ``DialectSettings/extraErrorCodes`` (`--final-error`).
    case extraErrorCodes
    /// ``DialectSettings/checksErrors`` (`--check-errors`).
    case checksErrors
    /// ``DialectSettings/sendsNothingUnsolicited`` (`--no-unsolicited`).
    case sendsNothingUnsolicited
    /// ``DialectSettings/listenPeriod`` (`--listen`).
    case listenPeriod
    /// ``DialectSettings/prompt`` (`--prompt`).
    case prompt
    /// ``DialectSettings/promptPattern`` (`--prompt-regex`).
    case promptPattern
    /// ``DialectSettings/readinessWait`` (`--prompt-wait`).
    case readinessWait
    /// ``DialectSettings/doesNotEcho`` (`--no-echo`).
    case doesNotEcho
    /// ``DialectSettings/errorPattern`` (`--error-pattern`).
    case errorPattern
    /// ``DialectSettings/terminator`` (`--eol`).
    case terminator
    /// ``DialectSettings/notificationPattern`` (`--notify-pattern`).
    case notificationPattern
    /// ``DialectSettings/payloadHeaders`` (`--payload-header`).
    case payloadHeaders
}
