import Foundation
import Testing

@testable import TetherPresenter
@testable import TetherViews

/// What a report plot keeps of a long series.
@Suite struct DownsamplingTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func samples(_ count: Int, value: (Int) -> Double) -> [SessionReport.Sample] {
        (0..<count).map { SessionReport.Sample(time: start.addingTimeInterval(Double($0) / 10), value: value($0)) }
    }

    @Test func aShortSeriesIsDrawnWhole() {
        let short = samples(4 * Downsampling.buckets) { Double($0 % 13) }
        #expect(Downsampling.series(short, from: start, to: short.last!.time) == short)
    }

    /// Every interval's least and greatest value survive, in time order, and nothing
    /// else than each interval's first, least, greatest and last.
    @Test func everyIntervalKeepsItsFirstLeastGreatestAndLast() {
        let long = samples(100_000) { sin(Double($0) / 50) * 100 + Double(($0 * 7919) % 23) }
        let end = long.last!.time
        let kept = Downsampling.series(long, from: start, to: end)
        #expect(kept.count <= 4 * Downsampling.buckets)
        #expect(kept.map(\.time) == kept.map(\.time).sorted())
        let span = end.timeIntervalSince(start)
        let intervals = Dictionary(grouping: long) {
            min(Downsampling.buckets - 1, Int($0.time.timeIntervalSince(start) / span * Double(Downsampling.buckets)))
        }
        #expect(intervals.count == Downsampling.buckets)
        for (_, members) in intervals {
            let drawn = kept.filter { sample in members.contains { $0.time == sample.time } }
            #expect(drawn.first == members.first && drawn.last == members.last)
            #expect(drawn.map(\.value).min() == members.map(\.value).min())
            #expect(drawn.map(\.value).max() == members.map(\.value).max())
            #expect(drawn.count <= 4)
        }
        #expect(kept.map(\.value).min() == long.map(\.value).min())
        #expect(kept.map(\.value).max() == long.map(\.value).max())
    }

    /// The timeline keeps the first event of each kind in each interval and counts the
    /// rest, so a lone error among many exchanges is still drawn.
    @Test func theTimelineKeepsEachKindsFirstAndCountsTheRest() {
        var events = (0..<10_000).map {
            SessionReport.Event(time: start.addingTimeInterval(Double($0) / 10), kind: .exchange, text: "MEAS?")
        }
        events[5_000].kind = SessionReport.Event.Kind.timeout
        let kept = Downsampling.timeline(events, from: start, to: events.last!.time)
        #expect(kept.contains { $0.event.kind == .timeout && $0.more == 0 })
        let drawnAndCounted = kept.map { 1 + $0.more }.reduce(0, +)
        #expect(drawnAndCounted == events.count)
        #expect(kept.count <= 2 * Downsampling.buckets + 2)
    }
}
