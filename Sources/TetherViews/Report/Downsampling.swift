import FoundationEssentials
import TetherPresenter

/// What a report plot draws of a long series: the span cut into ``buckets`` equal
/// intervals, and of each interval only its first, least, greatest and last sample (the
/// M4 aggregation of Jugel et al., "M4: A Visualization-Oriented Time Series Data
/// Aggregation", VLDB 2014), in time order. A line through them draws the same pixels
/// as a line through every sample at the plot's width, and every minimum and maximum is
/// kept (`DownsamplingTests`). A series of at most four samples an interval is drawn
/// whole, so a short session's page is unchanged.
enum Downsampling {
    /// Intervals across a plot (its inner width is 624 px: about 2 px each).
    static let buckets = 300

    /// `samples` (in time order) as the plot draws them, from `start` to `end`.
    static func series(_ samples: [SessionReport.Sample], from start: Date, to end: Date) -> [SessionReport.Sample] {
        guard samples.count > 4 * buckets else { return samples }
        var kept: [SessionReport.Sample] = []
        kept.reserveCapacity(4 * buckets)
        var low = 0
        while low < samples.count {
            let bucket = Self.bucket(of: samples[low].time, from: start, to: end)
            var high = low + 1
            var least = low
            var greatest = low
            while high < samples.count, Self.bucket(of: samples[high].time, from: start, to: end) == bucket {
                if samples[high].value < samples[least].value { least = high }
                if samples[high].value > samples[greatest].value { greatest = high }
                high += 1
            }
            for index in Set([low, least, greatest, high - 1]).sorted() { kept.append(samples[index]) }
            low = high
        }
        return kept
    }

    /// `events` (in time order) as the timeline draws them: the first of each kind in
    /// each interval, with how many more of that kind it stands for.
    static func timeline(_ events: [SessionReport.Event], from start: Date, to end: Date)
        -> [(event: SessionReport.Event, more: Int)]
    {
        guard events.count > 4 * buckets else { return events.map { ($0, 0) } }
        var kept: [(event: SessionReport.Event, more: Int)] = []
        var latest: [SessionReport.Event.Kind: (bucket: Int, index: Int)] = [:]
        for event in events {
            let bucket = Self.bucket(of: event.time, from: start, to: end)
            if let last = latest[event.kind], last.bucket == bucket {
                kept[last.index].more += 1
            } else {
                latest[event.kind] = (bucket, kept.count)
                kept.append((event, 0))
            }
        }
        return kept
    }

    /// Which of the ``buckets`` intervals of `start…end` holds `time`.
    private static func bucket(of time: Date, from start: Date, to end: Date) -> Int {
        let span = max(end.timeIntervalSince(start), 0.001)
        return min(buckets - 1, max(0, Int(time.timeIntervalSince(start) / span * Double(buckets))))
    }
}
