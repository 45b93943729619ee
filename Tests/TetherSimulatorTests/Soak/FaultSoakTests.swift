import Foundation
import Testing

@testable import TetherSimulator

/// The fault soak, short: every fault alone and all together, with nothing lost,
/// duplicated or hung, and no reply given to the wrong query (except where a line
/// protocol cannot tell, ``FaultSoak/Scenario/mayMismatch``). `scripts/soak` runs the same with thousands of queries
/// (`TETHER_SOAK_QUERIES`) and prints the counts.
@Suite(.serialized) struct FaultSoakTests {
    static let queries = ProcessInfo.processInfo.environment["TETHER_SOAK_QUERIES"].flatMap { Int($0) } ?? 60
    static let seed = ProcessInfo.processInfo.environment["TETHER_SOAK_SEED"].flatMap { UInt64($0) } ?? 1

    @Test(arguments: FaultSoak.scenarios(seed: seed))
    func nothingIsMismatchedLostDuplicatedOrHung(scenario: FaultSoak.Scenario) async throws {
        let started = ContinuousClock.now
        let counts = try await FaultSoak.run(scenario, queries: Self.queries)
        print("soak \(scenario.name): \(counts) (\(ContinuousClock.now - started))")
        #expect(counts.queries == max(10, Int(Double(Self.queries) * scenario.share)))
        #expect(scenario.mayMismatch || counts.mismatched == 0)
        #expect(counts.lost == 0)
        #expect(counts.duplicated == 0)
        #expect(counts.hangs == 0)
        #expect(counts.answered + counts.timedOut + counts.failed == counts.queries)
    }
}
