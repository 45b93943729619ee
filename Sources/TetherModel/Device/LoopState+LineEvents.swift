import TetherSerial

extension LoopState {
    /// Hands `bytes` to the session with the line events the transport found among
    /// them (``SerialTransport/takeLineEvents()``): the bytes before each event first,
    /// then the event, so a break is published after the lines that ended before it.
    mutating func receive(_ bytes: [UInt8], placing events: [PlacedLineEvent], now: ContinuousClock.Instant) {
        var start = 0
        for placed in events {
            let offset = min(max(placed.offset, start), bytes.count)
            if offset > start { receive(Array(bytes[start..<offset]), now: now) }
            publish(.lineEvent(placed.event))
            start = offset
        }
        if start < bytes.count { receive(Array(bytes[start...]), now: now) }
    }
}
