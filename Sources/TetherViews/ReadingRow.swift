import TetherLibC
import TetherPresenter

/// One reading's cells on the dashboard: name, latest value, unit, min, max, mean and
/// how many numeric values were seen.
///
/// The value is shown as the device sent it (its unit moved to the unit column);
/// min, max and mean are written with the latest value's number of decimals (the
/// mean with one more), or in exponent form when the device uses it.
struct ReadingRow {
    let series: ReadingSeries
    let cells: [String]

    init(_ series: ReadingSeries) {
        self.series = series
        let latest = series.latest
        var value = latest.value
        if let unit = latest.unit, latest.number != nil, value.hasSuffix(unit) { value.removeLast(unit.count) }
        let style = NumberStyle(value)
        cells = [
            latest.name, ByteEscaping.escaped(Array(value.utf8)),
            latest.unit.map { ByteEscaping.escaped(Array($0.utf8)) } ?? "",
            series.minimum.map { style.text($0) } ?? "–", series.maximum.map { style.text($0) } ?? "–",
            series.mean.map { style.text($0, extraDecimals: 1) } ?? "–", String(series.count),
        ]
    }

    /// How a device writes its numbers, read from one of them.
    struct NumberStyle {
        let decimals: Int
        let usesExponent: Bool

        init(_ sample: String) {
            usesExponent = sample.contains("e") || sample.contains("E")
            decimals =
                sample.split(separator: ".", maxSplits: 1).dropFirst().first.map { $0.prefix { $0.isNumber }.count }
                ?? 0
        }

        func text(_ number: Double, extraDecimals: Int = 0) -> String {
            usesExponent
                ? CFormat.string("%.\(max(decimals, 2) + extraDecimals)e", number)
                : CFormat.string("%.\(decimals + extraDecimals)f", number)
        }
    }
}
