import Synchronization

extension SerialPort {
    /// What hears that a UUCP lock file could not be created (no permission to write
    /// in `/run/lock`, a read-only file system): once per process, the first time, a
    /// message naming the file and the reason. The port is opened all the same. The
    /// default handler ignores it; tether prints it as a warning (docs/HARDWARE.md).
    public static func setLockFileWarningHandler(_ handler: @escaping @Sendable (String) -> Void) {
        lockFileWarning.withLock { $0.handler = handler }
    }

    /// Hands `message` to the handler, the first time only.
    static func reportLockFileWarning(_ message: String) {
        let handler = lockFileWarning.withLock { state -> (@Sendable (String) -> Void)? in
            defer { state.hasWarned = true }
            return state.hasWarned ? nil : state.handler
        }
        handler?(message)
    }

    private static let lockFileWarning = Mutex<(handler: @Sendable (String) -> Void, hasWarned: Bool)>(
        (handler: { _ in }, hasWarned: false))
}
