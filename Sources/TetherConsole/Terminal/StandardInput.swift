import Glibc
import TetherLibC

/// Lines typed or piped on standard input, read on a dedicated thread (reading blocks).
public enum StandardInput {
    /// Each line's exact bytes without its line end (LF, or CR LF); the stream ends at
    /// end of input (Ctrl-D). The bytes are not decoded: a byte that is not valid UTF-8
    /// (`printf '\xffA\n'`) stays that byte, where `readLine()` would give U+FFFD. A
    /// last line without a line end is a line too.
    public static func lines() -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        let started = DedicatedThread.start {
            var splitter = LineSplitter()
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                for line in splitter.lines(in: chunk[..<count]) { continuation.yield(line) }
            }
            if let last = splitter.rest { continuation.yield(last) }
            continuation.finish()
        }
        if !started { continuation.finish() }
        return stream
    }

    /// Cuts bytes arriving in pieces into lines at LF, dropping a CR before the LF (a
    /// file written on Windows); a line split across two pieces is kept until its end.
    struct LineSplitter {
        private var pending: [UInt8] = []

        /// The lines `bytes` completes, in order, without their line ends.
        mutating func lines(in bytes: ArraySlice<UInt8>) -> [[UInt8]] {
            var lines: [[UInt8]] = []
            var start = bytes.startIndex
            while let end = bytes[start...].firstIndex(of: 0x0A) {
                var line = pending + bytes[start..<end]
                pending.removeAll()
                if line.last == 0x0D { line.removeLast() }
                lines.append(line)
                start = end + 1
            }
            pending += bytes[start...]
            return lines
        }

        /// What is left after the last line end, if anything: the last line of an input
        /// that does not end in one.
        var rest: [UInt8]? { pending.isEmpty ? nil : pending }
    }
}
