/// Why the session holds the next request back (the ``Session``'s gate; docs/DIALECTS.md,
/// "When the next command goes"). Reported with ``SessionEvent/held(_:for:before:)``.
public enum HoldReason: String, Sendable, Equatable {
    /// Listening before the first command (a `line` device told nothing: 150 ms,
    /// ``LineDialect/defaultOpeningListen``; or the dialect's ``Dialect/listenPeriod``), or
    /// after the device showed that it speaks unasked, so that what it says unasked is
    /// learned first. A fixed time.
    case listen
    /// After a timeout, until the line has been quiet (250 ms, longer once the device
    /// answered late), so that a late reply is not taken for the next command's.
    case resync
    /// After a timeout on a console busy with the command, until it shows its prompt
    /// again (``Dialect/readinessWait``).
    case readiness
    /// While a complete reply settles (`line`, `scpi` once the device speaks unasked).
    case settling
}
