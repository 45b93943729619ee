/// A sparkline: a series of numbers drawn as Unicode block characters, `▁` (lowest)
/// to `█` (highest), scaled between the smallest and largest value shown.
enum Sparkline {
    /// The eight levels, lowest first.
    static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// The last `width` values as a sparkline (all `▁` when they are equal).
    static func text(_ values: [Double], width: Int) -> String {
        let shown = values.suffix(max(width, 0))
        guard let lowest = shown.min(), let highest = shown.max() else { return "" }
        let range = highest - lowest
        return String(
            shown.map { value in
                let level = range > 0 ? Int(((value - lowest) / range * 7).rounded()) : 0
                return levels[min(max(level, 0), 7)]
            })
    }
}
