import Glibc

/// Starts the dedicated thread a device's port loop runs on (POSIX threads, so the
/// Model needs no Foundation). The thread is detached: it ends when `body` returns.
enum LoopThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new thread.
    ///
    /// - Returns: `false` when the thread could not be created (`pthread_create`
    ///   failed, e.g. the process is out of threads); `body` then never runs.
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let argument = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { argument in
                Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
                return nil
            }, argument)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(argument).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}
