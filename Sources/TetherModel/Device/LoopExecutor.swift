import Synchronization
import TetherPoll

/// A device's port-loop thread as a Swift `TaskExecutor` (``Device/executor``): a task
/// that prefers it is resumed on the loop thread itself, in the loop turn that read
/// its reply, instead of on a thread of Swift's pool that must be woken first — the
/// shape of SwiftNIO's event-loop executors.
///
/// The loop runs the jobs enqueued here once per turn while it serves the open port,
/// after the turn's reads and writes, outside the state lock, and sleeps in `poll` only
/// when none wait; a job enqueued while it sleeps wakes it through its wake-up pipe.
/// While the loop does not serve — before ``Device/start()`` has taken in the waiting
/// input, while the port is away, after the device ended — jobs go to Swift's global
/// concurrent executor instead, so a task that prefers a closed device's loop still runs.
final class LoopExecutor: TaskExecutor, Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        /// The loop runs the jobs (it is in ``DeviceLoop``'s serve loop).
        var isServing = false
        /// The loop is about to sleep, or sleeps, in `poll` and must be woken for a job.
        var isAsleep = false
    }

    private let queue = Mutex(Queue())
    private let wakeUp: WakeUpPipe

    /// - Parameter wakeUp: the loop's wake-up pipe, signalled only while the loop serves
    ///   (so never after it was closed).
    init(wakeUp: WakeUpPipe) {
        self.wakeUp = wakeUp
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let isQueued = queue.withLock { queue in
            guard queue.isServing else { return false }
            queue.jobs.append(job)
            if queue.isAsleep {
                queue.isAsleep = false
                // Under the lock: the loop cannot stop serving, and its pipe close, meanwhile.
                wakeUp.signal()
            }
            return true
        }
        if !isQueued { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    // MARK: - The loop's side

    /// The loop serves the open port from now on and runs the jobs.
    func beginServing() {
        queue.withLock { $0.isServing = true }
    }

    /// The loop stops serving: the jobs waiting, and later ones, go to the global
    /// concurrent executor.
    func endServing() {
        let waiting = queue.withLock { queue in
            queue.isServing = false
            queue.isAsleep = false
            defer { queue.jobs = [] }
            return queue.jobs
        }
        for job in waiting { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
    }

    /// Before the loop's `poll`: whether it may sleep (no job waits); if so a job
    /// enqueued from now on wakes it.
    func prepareToSleep() -> Bool {
        queue.withLock { queue in
            queue.isAsleep = queue.jobs.isEmpty
            return queue.isAsleep
        }
    }

    /// After the loop's `poll`: it is awake.
    func wokeUp() {
        queue.withLock { $0.isAsleep = false }
    }

    /// Runs the jobs waiting now, in order, on the calling (loop) thread; jobs they
    /// enqueue wait for the next turn, so a task that keeps yielding cannot starve the port.
    func runJobs() {
        let jobs = queue.withLock { queue in
            defer { queue.jobs = [] }
            return queue.jobs
        }
        guard !jobs.isEmpty else { return }
        let executor = asUnownedTaskExecutor()
        for job in jobs { job.runSynchronously(on: executor) }
    }
}
