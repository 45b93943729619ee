import Testing
import TetherConnection

@testable import tether

/// `tether query`'s tally: the command's task waits once for every command's
/// outcome, and gets the worst exit code of them.
@Suite struct QueryOutcomesTests {
    @Test func theWorstOutcomeIsTheExitCode() async {
        let outcomes = QueryOutcomes(expecting: 3)
        outcomes.record(.success)
        outcomes.record(.timeout)
        outcomes.record(.expectationFailed)
        #expect(await outcomes.all() == .timeout)
    }

    @Test func aWaitBeforeTheOutcomesEndsWithTheLast() async {
        let outcomes = QueryOutcomes(expecting: 2)
        async let code = outcomes.all()
        outcomes.record(.success)
        outcomes.record(.expectationFailed)
        #expect(await code == .expectationFailed)
    }

    /// The device ended (the view stopped) before every command had an outcome: a
    /// disconnect, 74, not success; outcomes after the end change nothing.
    @Test func theViewEndingFirstIsADisconnect() async {
        let outcomes = QueryOutcomes(expecting: 2)
        outcomes.record(.success)
        outcomes.viewEnded()
        outcomes.record(.timeout)
        #expect(await outcomes.all() == .ioError)
    }

    @Test func theViewEndingAfterEveryOutcomeChangesNothing() async {
        let outcomes = QueryOutcomes(expecting: 1)
        outcomes.record(.success)
        outcomes.viewEnded()
        #expect(await outcomes.all() == .success)
    }
}
