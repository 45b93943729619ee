import FoundationEssentials
import TetherPresenter

/// The report's plots as inline SVG (no script, no network): a series over time, a
/// histogram, a timeline. Every mark has `data-mark` and a `<title>` (its value, shown
/// on hover); axes say their range.
enum SVGPlot {
    static let width = 720.0
    static let height = 180.0
    private static let left = 84.0
    private static let right = 12.0
    private static let top = 12.0
    private static let bottom = 28.0

    /// `samples` over the session's time span, joined by a line (`joined`) or as dots.
    static func series(
        _ samples: [SessionReport.Sample], from start: Date, to end: Date, label: String, joined: Bool
    ) -> String {
        let values = samples.map(\.value)
        let (low, high) = range(values)
        let x = { (time: Date) in scale(time.timeIntervalSince(start), 0, max(end.timeIntervalSince(start), 0.001)) }
        let y = { (value: Double) in top + (height - top - bottom) * (1 - (value - low) / (high - low)) }
        var body = axes(
            yLow: SampleStatistics.show(low), yHigh: SampleStatistics.show(high), xLow: "0 s",
            xHigh: SampleStatistics.show((end.timeIntervalSince(start) * 10).rounded() / 10) + " s", label: label)
        if joined, samples.count > 1 {
            let points = samples.map { "\(rounded(x($0.time))),\(rounded(y($0.value)))" }.joined(separator: " ")
            body += "<polyline class=\"line\" points=\"\(points)\"/>"
        }
        for sample in samples {
            body +=
                "<circle data-mark=\"\" cx=\"\(rounded(x(sample.time)))\" cy=\"\(rounded(y(sample.value)))\" r=\"2.5\">"
                + "<title>\(Markup.escaped(ISO8601Timestamp.string(sample.time))): \(SampleStatistics.show(sample.value))</title></circle>"
        }
        return svg(body, kind: joined ? "series" : "scatter", label: label)
    }

    /// How many of `values` fall in each of `bins` equal bins.
    static func histogram(_ values: [Double], label: String, bins: Int = 20) -> String {
        let (low, high) = range(values)
        var counts = [Int](repeating: 0, count: bins)
        for value in values { counts[min(bins - 1, Int((value - low) / (high - low) * Double(bins)))] += 1 }
        let most = Double(counts.max() ?? 1)
        var body = axes(
            yLow: "0", yHigh: String(Int(most)), xLow: SampleStatistics.show(low),
            xHigh: SampleStatistics.show(high), label: label)
        let barWidth = (width - left - right) / Double(bins)
        for (index, count) in counts.enumerated() where count > 0 {
            let barHeight = (height - top - bottom) * Double(count) / most
            let from = low + (high - low) * Double(index) / Double(bins)
            let to = low + (high - low) * Double(index + 1) / Double(bins)
            body +=
                "<rect data-mark=\"\" x=\"\(rounded(left + barWidth * Double(index) + 1))\" "
                + "y=\"\(rounded(height - bottom - barHeight))\" width=\"\(rounded(max(1, barWidth - 2)))\" "
                + "height=\"\(rounded(barHeight))\"><title>\(SampleStatistics.show(from))–\(SampleStatistics.show(to)) ms: "
                + "\(count)</title></rect>"
        }
        return svg(body, kind: "histogram", label: label)
    }

    /// Each event on a row of its kind, over the session's time span; one that stands
    /// for `more` of its kind (``Downsampling/timeline(_:from:to:)``) says so in its title.
    static func timeline(_ events: [(event: SessionReport.Event, more: Int)], from start: Date, to end: Date) -> String
    {
        let kinds = SessionReport.Event.Kind.allCases
        let rowHeight = (height - top - bottom) / Double(kinds.count)
        var body = ""
        for (row, kind) in kinds.enumerated() {
            let y = top + rowHeight * (Double(row) + 0.5)
            body += "<text class=\"row\" x=\"\(left - 6)\" y=\"\(rounded(y + 4))\">\(kind.rawValue)</text>"
            body +=
                "<line class=\"grid\" x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(rounded(y))\" y2=\"\(rounded(y))\"/>"
        }
        body += "<text class=\"tick\" x=\"\(left)\" y=\"\(height - 8)\">0 s</text>"
        body +=
            "<text class=\"tick end\" x=\"\(width - right)\" y=\"\(height - 8)\">"
            + SampleStatistics.show((end.timeIntervalSince(start) * 10).rounded() / 10) + " s</text>"
        for (event, more) in events {
            let row = kinds.firstIndex(of: event.kind) ?? 0
            let x = scale(event.time.timeIntervalSince(start), 0, max(end.timeIntervalSince(start), 0.001))
            body +=
                "<circle data-mark=\"\" class=\"\(event.kind == .exchange ? "ok" : "bad")\" cx=\"\(rounded(x))\" "
                + "cy=\"\(rounded(top + rowHeight * (Double(row) + 0.5)))\" r=\"3\"><title>"
                + Markup.escaped("\(ISO8601Timestamp.string(event.time)) \(event.kind.rawValue): \(event.text)")
                + (more > 0 ? " (and \(more) more in this interval)" : "") + "</title></circle>"
        }
        return svg(body, kind: "timeline", label: "timeline")
    }

    private static func svg(_ body: String, kind: String, label: String) -> String {
        "<svg class=\"plot \(kind)\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" "
            + "aria-label=\"\(Markup.escaped(label))\">\(body)</svg>"
    }

    private static func axes(yLow: String, yHigh: String, xLow: String, xHigh: String, label: String) -> String {
        "<line class=\"axis\" x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(height - bottom)\"/>"
            + "<line class=\"axis\" x1=\"\(left)\" y1=\"\(height - bottom)\" x2=\"\(width - right)\" y2=\"\(height - bottom)\"/>"
            + "<text class=\"tick end\" x=\"\(left - 6)\" y=\"\(top + 8)\">\(Markup.escaped(yHigh))</text>"
            + "<text class=\"tick end\" x=\"\(left - 6)\" y=\"\(height - bottom)\">\(Markup.escaped(yLow))</text>"
            + "<text class=\"tick\" x=\"\(left)\" y=\"\(height - 8)\">\(Markup.escaped(xLow))</text>"
            + "<text class=\"tick end\" x=\"\(width - right)\" y=\"\(height - 8)\">\(Markup.escaped(xHigh))</text>"
            + "<text class=\"label\" x=\"\((left + width) / 2)\" y=\"\(height - 8)\">\(Markup.escaped(label))</text>"
    }

    /// The least and greatest value, widened by one when they are equal.
    private static func range(_ values: [Double]) -> (Double, Double) {
        let low = values.min() ?? 0
        let high = values.max() ?? 1
        return low == high ? (low - 0.5, high + 0.5) : (low, high)
    }

    /// `value` from `low…high` onto the plot's x axis.
    private static func scale(_ value: Double, _ low: Double, _ high: Double) -> Double {
        left + (width - left - right) * (value - low) / (high - low)
    }

    private static func rounded(_ value: Double) -> String { String((value * 10).rounded() / 10) }
}
