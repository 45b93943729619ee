import Foundation

/// Runs a script's blocking work on a dedicated thread — never on Swift's cooperative
/// pool, which blocking waits would starve — and hands its result back to async code.
enum ScriptThread {
    /// Runs `body` on a new thread named `name` and returns its result.
    static func run<T: Sendable>(named name: String, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.name = name
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
