import Testing
import TetherCommandLine

@Suite struct SuggestionTests {
    @Test(arguments: [("baud", "bud", 1), ("", "abc", 3), ("kitten", "sitting", 3), ("same", "same", 0)])
    func distanceCountsEdits(a: String, b: String, edits: Int) {
        #expect(Suggestion.distance(a, b) == edits)
        #expect(Suggestion.distance(b, a) == edits)
    }

    @Test func theNearestNameWithinReachIsSuggested() {
        #expect(Suggestion.nearest(to: "bud", among: ["baud", "parity"]) == "baud")
        #expect(Suggestion.nearest(to: "xyz", among: ["baud", "parity"]) == nil)
        #expect(Suggestion.nearest(to: "flowcontrol", among: ["flow-control", "baud"]) == "flow-control")
    }
}
