import Foundation
import Glibc

/// The test's side of the pty: opens the slave like a serial client and sets raw mode.
final class PtyClient {
    struct OpenError: Error, CustomStringConvertible {
        let description: String
    }

    let fd: Int32
    private var pending: [UInt8] = []

    /// Opens `path` read-write, non-blocking, and switches it to raw mode (`cfmakeraw`).
    init(path: String) throws {
        fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else {
            throw OpenError(description: "open \(path): \(String(cString: strerror(errno)))")
        }
        var attributes = termios()
        tcgetattr(fd, &attributes)
        cfmakeraw(&attributes)
        tcsetattr(fd, TCSANOW, &attributes)
    }

    deinit {
        close(fd)
    }

    /// Writes the UTF-8 bytes of `text`.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// The next line ending in CR LF (without it), or `nil` if none arrives in time.
    func readLine(timeout: Duration = .seconds(5)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let end = pending.firstRange(of: [13, 10]) {
                let line = String(decoding: pending[..<end.lowerBound], as: UTF8.self)
                pending.removeSubrange(..<end.upperBound)
                return line
            }
            guard case .data(let bytes) = readSome(until: deadline) else { return nil }
            pending += bytes
        }
    }

    /// Every byte that arrives within `window`.
    func collect(for window: Duration) -> [UInt8] {
        let deadline = ContinuousClock.now + window
        var bytes = pending
        pending = []
        while case .data(let more) = readSome(until: deadline) {
            bytes += more
        }
        return bytes
    }

    /// Reads until the master hangs up (`read` gives 0 or `EIO`).
    ///
    /// - Returns: The bytes read before the hang-up, or `nil` if none came in time.
    func readUntilHangUp(timeout: Duration = .seconds(5)) -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        var bytes = pending
        pending = []
        while true {
            switch readSome(until: deadline) {
            case .data(let more): bytes += more
            case .hangUp: return bytes
            case .timeout: return nil
            }
        }
    }

    enum ReadOutcome {
        case data([UInt8])
        case hangUp
        case timeout
    }

    /// One `read` once data is available before `deadline`.
    func readSome(until deadline: ContinuousClock.Instant) -> ReadOutcome {
        while true {
            let (seconds, attoseconds) = (deadline - .now).components
            guard seconds >= 0 else { return .timeout }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(
                &entry, 1, Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000) + 1)
            guard ready > 0 else {
                if ready < 0 && errno == EINTR { continue }
                return .timeout
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 { return .data(Array(buffer[..<count])) }
            if count == 0 || errno == EIO { return .hangUp }
            if errno != EAGAIN && errno != EINTR { return .hangUp }
        }
    }
}

/// Waits until `condition` holds, polling every 5 ms; `false` after `timeout`.
func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(5000)
    }
    return condition()
}

/// A fresh path in the temporary directory (nothing is created there).
func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        .path
}
