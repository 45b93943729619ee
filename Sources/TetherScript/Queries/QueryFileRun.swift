import TetherModel
import TetherPresenter
import TetherSerial

/// Runs a query file on the script thread: each line's command in turn on the run's
/// first device, each line's result reported as a `check` record.
///
/// A line holds when its expectation holds, or — without one — when the reply is not
/// an error reply. A timed-out line is reported as `timeout` and the next line is
/// sent (the device resynchronises first, see `Session`); nothing in a query file
/// handles a timeout, so each counts as unhandled. Once the device is gone, the
/// remaining lines are reported as `not_run` and never sent.
///
/// A wait line (`=~ REGEX` alone) sends nothing: it waits up to the timeout for a line
/// no reply took, or for text without a line end (a prompt), that the expression
/// matches (``ReceivedText``). A command right before a wait line is sent without
/// waiting for its reply: the wait stands for it, as `send` and `expect` in Lua (a
/// console prompts instead of answering), and its own result is reported once its
/// reply is in — a prompt the wait consumed ends it.
struct QueryFileRun {
    let file: QueryFile
    let name: String
    let mediator: RunMediator
    /// Each line's reply timeout, and each wait's; `nil` for none.
    let timeout: Duration?

    /// What the device sent so far, as the run reads it from the mediator.
    private struct Progress {
        var received = ReceivedText()
        var outcomes: [RequestID: Result<Reply, RequestFailure>] = [:]
        var goneReason: String?
    }

    func run() -> ScriptOutcome {
        var outcome = ScriptOutcome(ending: .completed)
        var progress = Progress()
        var deferred: (step: QueryStep, id: RequestID)?
        for (index, step) in file.steps.enumerated() {
            let location = SourceLocation(file: name, line: step.line)
            if let reason = progress.goneReason, deferred == nil {
                report(.notRun, step, location, detail: RequestFailure.notSent(reason: reason).description)
                continue
            }
            if let control = step.control {
                perform(control, step, at: location)
                continue
            }
            if step.isWait {
                if wait(for: step, at: location, &progress) { outcome.unhandledTimeouts += 1 }
                if let (command, id) = deferred {
                    deferred = nil
                    if finish(command, outcomeOf: id, &progress) { outcome.unhandledTimeouts += 1 }
                }
                continue
            }
            let id = mediator.submit(bytes: step.bytes, to: 0, timeout: timeout)
            if file.steps.indices.contains(index + 1), file.steps[index + 1].isWait {
                deferred = (step, id)
            } else if finish(step, outcomeOf: id, &progress) {
                outcome.unhandledTimeouts += 1
            }
        }
        if progress.goneReason != nil { outcome.ending = .deviceLost }
        return outcome
    }

    /// Waits for request `id` to end and reports the line's result.
    ///
    /// - Returns: whether it timed out.
    private func finish(_ step: QueryStep, outcomeOf id: RequestID, _ progress: inout Progress) -> Bool {
        let location = SourceLocation(file: name, line: step.line)
        while progress.outcomes[id] == nil, progress.goneReason == nil { pump(until: nil, &progress) }
        let result = progress.outcomes.removeValue(forKey: id) ?? .failure(.notSent(reason: progress.goneReason ?? ""))
        switch result {
        case .success(let reply):
            let lines = (reply.lines + [reply.finalResult].compactMap { $0 }).map(\.text)
            let holds = step.expectation?.holds(for: lines) ?? !reply.isError
            let detail = holds || step.expectation != nil ? nil : "error reply"
            report(holds ? .passed : .failed, step, location, actual: lines, detail: detail)
        case .failure(.timedOut(let limit)):
            report(.timedOut, step, location, detail: RequestFailure.timedOut(limit).description)
            return true
        case .failure(.disconnected(let reason)), .failure(.stopped(let reason)):
            progress.goneReason = progress.goneReason ?? reason
            if case .failure(let failure) = result {
                report(.failed, step, location, detail: failure.description, isDeviceLost: true)
            }
        case .failure(.notSent(let reason)):
            progress.goneReason = progress.goneReason ?? reason
            report(.notRun, step, location, detail: RequestFailure.notSent(reason: reason).description)
        case .failure(let failure):  // cancelled, or not all of the command written
            report(.failed, step, location, detail: failure.description)
        }
        return false
    }

    /// Runs a wait line and reports its result.
    ///
    /// - Returns: whether it timed out.
    private func wait(for step: QueryStep, at location: SourceLocation, _ progress: inout Progress) -> Bool {
        guard case .matches(let pattern) = step.expectation else { return false }
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            let found = progress.received.take(matching: pattern) { start, count in
                mediator.consumePendingText(of: 0, start: start, count: count)
            }
            if let found {
                report(.passed, step, location, actual: [found])
                return false
            }
            if let reason = progress.goneReason {
                report(.failed, step, location, detail: "device disconnected (\(reason))")
                return false
            }
            if !pump(until: deadline, &progress) {
                let limit = timeout.map { " within \($0.milliseconds) ms" } ?? ""
                report(.timedOut, step, location, detail: "nothing received matched\(limit)")
                return true
            }
        }
    }

    /// Runs a directive line on the port (after the lines before it ended) and reports
    /// it: passed, with the settings read back for `@baud`; failed with the port's reason.
    private func perform(_ control: QueryControl, _ step: QueryStep, at location: SourceLocation) {
        switch control {
        case .sequence(let sequence):
            if let error = mediator.run(sequence, on: 0) {
                report(.failed, step, location, detail: error.description)
            } else {
                report(.passed, step, location)
            }
        case .baudRate(let rate):
            switch mediator.setBaudRate(rate, on: 0) {
            case .success(let settings): report(.passed, step, location, actual: [settings])
            case .failure(let error): report(.failed, step, location, detail: error.description)
            }
        }
    }

    /// Takes the first device's next event into `progress`, waiting until `deadline`.
    ///
    /// - Returns: `false` when the deadline passed first.
    @discardableResult
    private func pump(until deadline: ContinuousClock.Instant?, _ progress: inout Progress) -> Bool {
        guard let event = mediator.next(until: deadline) else { return false }
        switch event {
        case .line(0, let line, _):
            progress.received.append(line)
        case .pendingText(0, let line, let start):
            progress.received.setPending(line, start: start)
        case .finished(0, let id, let outcome):
            if case .success(let reply) = outcome {
                progress.received.replyTook(reply)
            }
            progress.outcomes[id] = outcome
        case .ended(0, let reason, _):
            progress.goneReason = progress.goneReason ?? reason
        default:
            break
        }
        return true
    }

    private func report(
        _ status: CheckResult.Status, _ step: QueryStep, _ location: SourceLocation, actual: [String]? = nil,
        detail: String? = nil, isDeviceLost: Bool = false
    ) {
        mediator.report(
            .checked(
                CheckResult(
                    status: status, location: location, description: step.description, device: mediator.devices[0].name,
                    actual: actual, detail: detail,
                    expected: step.control != nil
                        ? "the port to do it" : step.expectation?.description ?? "a reply that is not an error",
                    isDeviceLost: isDeviceLost)))
    }
}
