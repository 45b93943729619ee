import Foundation
import Testing

@testable import TetherPresenter

/// `tether report` reads JSON's `time` as `Date.ISO8601FormatStyle` did before.
@Suite struct ISO8601DateTests {
    @Test(arguments: [
        "2026-11-29T21:04:08.098Z", "2026-11-29T21:04:08Z", "1970-01-01T00:00:00.000Z", "2024-02-29T23:59:59.999Z",
        "1969-12-31T23:59:59.5Z", "2026-11-29T22:04:08.098+01:00", "2026-11-29T16:34:08-0430",
        "2000-03-01T00:00:00.123456Z",
    ])
    func aTimestampIsTheDateFoundationReads(text: String) throws {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let expected = try (try? style.parse(text)) ?? Date.ISO8601FormatStyle().parse(text)
        let parsed = try #require(ISO8601Date.parse(text))
        #expect(abs(parsed.timeIntervalSince(expected)) < 1e-6)
    }

    @Test(arguments: [
        "", "2026-11-29", "2026-11-29T21:04:08", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-11-29T24:00:00Z",
        "2026-11-29T21:04:08.Z", "2026-11-29T21:04:08Zx", "26-11-29T21:04:08Z", "2026-11-29 21:04:08Z",
    ])
    func anythingElseIsNoDate(text: String) {
        #expect(ISO8601Date.parse(text) == nil)
    }

    /// Each millisecond of a second reads back as itself when the report shows it.
    @Test func millisecondsSurviveTheRoundTrip() throws {
        for millisecond in 0..<1000 {
            let text = "2026-11-29T21:04:08." + String(1000 + millisecond).dropFirst() + "Z"
            let date = try #require(ISO8601Date.parse(text))
            let shown = Int((date.timeIntervalSince1970 * 1000).rounded(.down)) % 1000
            #expect(shown == millisecond, "\(text)")
        }
    }
}
