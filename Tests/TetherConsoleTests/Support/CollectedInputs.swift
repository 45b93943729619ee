import Synchronization
import TetherConsole

/// What a terminal reports, collected as it comes, for a test to wait on.
final class CollectedInputs: Sendable {
    private let received = Mutex<[ConsoleInput]>([])
    private let isFinished = Mutex(false)

    init(_ inputs: AsyncStream<ConsoleInput>) {
        Task { [self] in
            for await input in inputs { received.withLock { $0.append(input) } }
            isFinished.withLock { $0 = true }
        }
    }

    /// The inputs so far, adjacent keystrokes joined (a read may split what was typed).
    var merged: [ConsoleInput] {
        received.withLock { inputs in
            var merged: [ConsoleInput] = []
            for input in inputs {
                if case .keystrokes(let more) = input, case .keystrokes(let before)? = merged.last {
                    merged[merged.count - 1] = .keystrokes(before + more)
                } else {
                    merged.append(input)
                }
            }
            return merged
        }
    }

    /// Whether the stream has ended.
    var hasEnded: Bool { isFinished.withLock { $0 } }

    /// Waits (at most 10 s) until `condition` holds for ``merged``.
    func wait(until condition: ([ConsoleInput]) -> Bool) async -> Bool {
        let end = ContinuousClock.now + .seconds(10)
        while !condition(merged) {
            guard ContinuousClock.now < end else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }
}
