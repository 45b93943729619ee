import TetherLibC

/// Runs a script's blocking work on a dedicated thread — never on Swift's cooperative
/// pool, which blocking waits would starve — and hands its result back to async code.
enum ScriptThread {
    /// Runs `body` on a new thread (8 MiB of stack, for Lua) and returns its result.
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let started = DedicatedThread.start(stackSize: 8 << 20) {
                continuation.resume(returning: body())
            }
            // Out of threads: run here rather than never.
            if !started { continuation.resume(returning: body()) }
        }
    }
}
