extension Duration {
    /// The duration as `poll(2)`'s timeout: whole milliseconds rounded up (so `poll`
    /// never wakes before a deadline and spins), 0 for a duration of zero or less, at
    /// most `Int32.max`.
    public var pollTimeout: Int32 {
        guard self > .zero else { return 0 }
        let (seconds, attoseconds) = components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
