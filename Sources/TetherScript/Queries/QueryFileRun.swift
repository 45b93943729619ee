import TetherModel
import TetherPresenter

/// Runs a query file on the script thread: each line's command in turn on the run's
/// first device, each line's result reported as a `check` record.
///
/// A line holds when its expectation holds, or — without one — when the reply is not
/// an error reply. A timed-out line is reported as `timeout` and the next line is
/// sent (the device resynchronises first, see `Session`); nothing in a query file
/// handles a timeout, so each counts as unhandled. Once the device is gone, the
/// remaining lines are reported as `not_run` and never sent.
struct QueryFileRun {
    let file: QueryFile
    let name: String
    let mediator: RunMediator
    /// Each line's reply timeout; `nil` for none.
    let timeout: Duration?

    func run() -> ScriptOutcome {
        var outcome = ScriptOutcome(ending: .completed)
        var goneReason: String?
        for step in file.steps {
            let location = SourceLocation(file: name, line: step.line)
            if let reason = goneReason {
                report(.notRun, step, location, detail: "device disconnected (\(reason))")
                continue
            }
            switch awaitOutcome(of: mediator.submit(step.command, to: 0, timeout: timeout)) {
            case .success(let reply):
                let lines = (reply.lines + [reply.finalResult].compactMap { $0 }).map(\.text)
                let holds = step.expectation?.holds(for: lines) ?? !reply.isError
                let detail = holds || step.expectation != nil ? nil : "error reply"
                report(holds ? .passed : .failed, step, location, actual: lines, detail: detail)
            case .failure(.timedOut(let limit)):
                outcome.unhandledTimeouts += 1
                report(.timedOut, step, location, detail: RequestFailure.timedOut(limit).description)
            case .failure(.disconnected(let reason)):
                goneReason = reason
                report(.failed, step, location, detail: RequestFailure.disconnected(reason: reason).description)
            case .failure(.notSent(let reason)):
                goneReason = reason
                report(.notRun, step, location, detail: "device disconnected (\(reason))")
            case .failure(.cancelled):
                report(.failed, step, location, detail: RequestFailure.cancelled.description)
            }
        }
        if goneReason != nil { outcome.ending = .deviceLost }
        return outcome
    }

    /// Waits for request `id` of the first device to end. A device that ends first
    /// never sent it (requests queued before a hang-up fail before the end is
    /// reported).
    private func awaitOutcome(of id: RequestID) -> Result<Reply, RequestFailure> {
        while true {
            switch mediator.next(until: nil) {
            case .finished(0, id, let outcome)?:
                return outcome
            case .ended(0, let reason, _)?:
                return .failure(.notSent(reason: reason))
            default:
                continue
            }
        }
    }

    private func report(
        _ status: CheckResult.Status, _ step: QueryStep, _ location: SourceLocation, actual: [String]? = nil,
        detail: String? = nil
    ) {
        mediator.report(
            .checked(
                CheckResult(
                    status: status, location: location, description: step.description, device: mediator.devices[0].name,
                    actual: actual, detail: detail)))
    }
}
