extension Duration {
    /// The duration in whole milliseconds (rounded down), as the views show round trips,
    /// timeouts and downtimes (`12 ms`, `rtt_ms`).
    ///
    /// The views' own: they import only the Presenter, never the Model (see
    /// docs/ARCHITECTURE.md, "Who may import whom").
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
