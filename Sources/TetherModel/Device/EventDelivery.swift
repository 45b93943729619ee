/// What an observer of a ``Device`` needs when it falls behind.
public enum EventDelivery: Sendable, Equatable {
    /// Nothing may be lost: when `bufferLimit` events wait for this observer, the
    /// device's port loop stops reading the port until the observer catches up, so the
    /// kernel's buffer and then the device's flow control hold the data. For whatever
    /// produces the user's output (the CLI's view, a script run). An observer that
    /// stops iterating must drop its sequence, or the device stops reading.
    case lossless(bufferLimit: Int)
    /// The device never waits for this observer: when `bufferLimit` events wait, later
    /// ones are dropped for it and counted, and it receives
    /// ``DeviceEvent/Kind/missed(count:)`` before its next event (and at the end).
    /// For optional observers (a status line).
    case lossy(bufferLimit: Int)

    /// Lossless, with room for 4096 events.
    public static let lossless = EventDelivery.lossless(bufferLimit: 4096)
    /// Lossy, with room for 4096 events.
    public static let lossy = EventDelivery.lossy(bufferLimit: 4096)
}
