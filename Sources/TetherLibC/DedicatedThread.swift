import Glibc

/// Starts work on a thread of its own (POSIX threads), for blocking calls that must
/// never run on Swift's cooperative pool: reading standard input, a script's waits.
/// Foundation's `Thread` does the same, but linking Foundation loads ICU at start-up.
public enum DedicatedThread {
    /// Runs `body` on a new detached thread with a stack of `stackSize` bytes.
    ///
    /// - Returns: `false` (and `body` does not run) when `pthread_create` fails, e.g.
    ///   when the process is out of threads.
    @discardableResult
    public static func start(stackSize: Int = 512 << 10, _ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, stackSize)
        let work = Unmanaged.passRetained(Work(body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, work)
        guard created == 0 else {
            Unmanaged<Work>.fromOpaque(work).release()
            return false
        }
        return true
    }

    private final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
