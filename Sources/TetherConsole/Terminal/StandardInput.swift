import TetherLibC

/// Lines typed on standard input, read on a dedicated thread (reading blocks).
public enum StandardInput {
    /// Each line without its terminator; the stream ends at end of input (Ctrl-D).
    public static func lines() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let started = DedicatedThread.start {
            while let line = readLine(strippingNewline: true) {
                continuation.yield(line)
            }
            continuation.finish()
        }
        if !started { continuation.finish() }
        return stream
    }
}
