import TetherSerial

/// The line sequences callers asked the port loop to run (``Device/run(_:)``), in
/// order: the one running, its next step and when that step is due — a deadline of the
/// loop's `poll`, so no thread sleeps through a hold. Part of ``LoopState``.
struct LineSchedule {
    /// A sequence to run and the caller waiting for its end.
    struct Job {
        var sequence: LineSequence
        /// The next step to apply.
        var next = 0
        let waiter: CheckedContinuation<Result<Void, SerialError>, Never>
    }

    /// What the loop does next with the sequences.
    enum Work {
        /// Apply this step of the running sequence now, outside the lock.
        case apply(LineStep, sequence: String, isFirst: Bool)
        /// The running sequence is over: resume its caller.
        case finished(CheckedContinuation<Result<Void, SerialError>, Never>)
    }

    private(set) var jobs: [Job] = []
    /// When the running sequence's next step (or its end) is due; `nil`: at once.
    private var dueAt: ContinuousClock.Instant?

    /// When the loop must wake for the sequences: `nil` when none runs.
    var nextDeadline: ContinuousClock.Instant? {
        guard !jobs.isEmpty else { return nil }
        return dueAt ?? .now
    }

    /// Adds a sequence after those already asked for.
    mutating func append(_ sequence: LineSequence, waiter: CheckedContinuation<Result<Void, SerialError>, Never>) {
        jobs.append(Job(sequence: sequence, waiter: waiter))
    }

    /// What is due at `now`, if anything: the next step, or the end of a sequence whose
    /// last hold is over.
    mutating func takeDue(now: ContinuousClock.Instant) -> Work? {
        guard !jobs.isEmpty, dueAt.map({ $0 <= now }) ?? true else { return nil }
        let job = jobs[0]
        guard job.next < job.sequence.steps.count else {
            jobs.removeFirst()
            dueAt = nil
            return .finished(job.waiter)
        }
        jobs[0].next += 1
        let step = job.sequence.steps[job.next]
        return .apply(step, sequence: job.sequence.name, isFirst: job.next == 0)
    }

    /// The step taken by ``takeDue(now:)`` was applied at `now`: the next is due after
    /// its hold.
    mutating func applied(_ step: LineStep, now: ContinuousClock.Instant) {
        dueAt = now + step.hold
    }

    /// The step could not be applied: the running sequence ends with `error`; its
    /// caller is returned to resume.
    mutating func failRunning() -> CheckedContinuation<Result<Void, SerialError>, Never>? {
        guard !jobs.isEmpty else { return nil }
        dueAt = nil
        return jobs.removeFirst().waiter
    }

    /// Ends every sequence (the port went away or the device ended): their callers,
    /// to resume with a failure.
    mutating func takeAll() -> [CheckedContinuation<Result<Void, SerialError>, Never>] {
        defer {
            jobs.removeAll()
            dueAt = nil
        }
        return jobs.map(\.waiter)
    }
}
