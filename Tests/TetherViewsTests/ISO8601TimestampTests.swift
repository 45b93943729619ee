import Foundation
import Testing

@testable import TetherViews

/// The JSON view's timestamps, computed by hand, against Foundation's formatter.
@Suite struct ISO8601TimestampTests {
    @Test func matchesFoundationsFormatter() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var seconds = [0, 0.0009, 0.9999, 951_782_400.5, 1_709_164_800.001, 1_800_000_000.25, 4_102_444_799.999]
        var state: UInt64 = 0x1234_5678
        for _ in 0..<5000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            seconds.append(Double(state >> 33) / 1000)  // 1970 to 2038, ms steps and between
        }
        for second in seconds {
            let date = Date(timeIntervalSince1970: second)
            #expect(ISO8601Timestamp.string(date) == date.formatted(style), "\(second)")
        }
    }
}
