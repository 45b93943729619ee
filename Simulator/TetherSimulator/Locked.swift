import Foundation

/// A value guarded by a lock, shared between the serving thread and its callers.
///
/// `@unchecked Sendable`: every access to `value` goes through `withLock`, which holds
/// `lock` for the whole closure, so no two threads touch `value` at once.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
