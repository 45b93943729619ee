import TetherPresenter

/// Count, least, mean, greatest and percentiles of a series of samples, as the report
/// tables show them.
struct SampleStatistics: Sendable {
    let count: Int
    let minimum: Double
    let mean: Double
    let maximum: Double
    private let sorted: [Double]

    /// The statistics of `samples`; `nil` when there are none.
    init?(_ samples: [SessionReport.Sample]) {
        guard !samples.isEmpty else { return nil }
        sorted = samples.map(\.value).sorted()
        count = sorted.count
        minimum = sorted[0]
        maximum = sorted[sorted.count - 1]
        mean = sorted.reduce(0, +) / Double(sorted.count)
    }

    /// The `fraction` percentile (nearest rank), e.g. 0.5 for the median.
    func percentile(_ fraction: Double) -> Double {
        let rank = Int((fraction * Double(count)).rounded(.up))
        return sorted[max(0, min(count - 1, rank - 1))]
    }

    /// A number as the tables show it: whole when it is, else with up to three
    /// decimals.
    static func show(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        let thousandths = (value * 1000).rounded() / 1000
        return String(thousandths)
    }
}
