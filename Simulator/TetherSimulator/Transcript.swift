import Glibc
import TetherLibC

/// A record of every byte a simulated device read and wrote, with timestamps, and of
/// its connection events (`tether-sim --log FILE`).
///
/// One line per `read()` or `write()` on the master, written with its own `write()` as
/// it happens (nothing is buffered, so the file is complete up to the moment a run
/// crashes or is killed):
///
/// ```text
/// 2026-11-29T21:00:00.123Z < 2a 49 44 4e 3f 0a  "*IDN?\n"
/// 2026-11-29T21:00:00.125Z > 54 45 54 48 45 52 2c … 0d 0a  "TETHER,ENV-1,SIM0001,1.0\r\n"
/// 2026-11-29T21:00:03.001Z * hang-up: disconnect fault (after 20 lines)
/// ```
///
/// - the time the simulator read or wrote, UTC, ISO 8601 with milliseconds;
/// - `<` bytes the device received from the client, `>` bytes it sent to the client,
///   `*` an event (client connected or disconnected, hang-up, reappeared, stopped);
/// - the bytes in lower-case hex, separated by spaces;
/// - two spaces, then the same bytes as a C-style string: printable ASCII as is, `\n`,
///   `\r`, `\t`, `\\`, `\"`, anything else `\xNN`.
public final class Transcript: Sendable {
    /// Which way bytes went.
    public enum Direction: Sendable {
        /// From the client to the device (`<`).
        case received
        /// From the device to the client (`>`).
        case sent
    }

    /// The file's path as given.
    public let path: String
    private let descriptor: Int32

    /// Creates (or truncates) the file at `path`, mode 0644.
    ///
    /// - Throws: ``SimulatorError`` `.transcriptFailed` with the errno of `open`.
    public init(path: String) throws(SimulatorError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SimulatorError(.transcriptFailed, "cannot create the log file \(Quoted(path))", osError: errno)
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Appends a line for bytes read or written now.
    func record(_ direction: Direction, _ bytes: some Collection<UInt8>) {
        append(Self.line(time: Self.now(), direction: direction, bytes: bytes))
    }

    /// Appends an event line (`*`) now.
    func note(_ event: String) {
        append("\(Self.timestamp(Self.now())) * \(event)\n")
    }

    /// The line for `bytes` at `time` (seconds and nanoseconds since 1970, UTC).
    static func line(time: timespec, direction: Direction, bytes: some Collection<UInt8>) -> String {
        let arrow = direction == .received ? "<" : ">"
        return "\(timestamp(time)) \(arrow) \(shown(bytes))\n"
    }

    /// `bytes` as a line shows them: lower-case hex pairs, then the C string,
    /// e.g. `50 0d  "P\r"`.
    static func shown(_ bytes: some Collection<UInt8>) -> String {
        let hex = bytes.map { hexDigits[Int($0 >> 4)] + hexDigits[Int($0 & 0xF)] }.joined(separator: " ")
        return "\(hex)  \"\(escaped(bytes))\""
    }

    /// `2026-11-29T21:00:00.123Z` for `time`.
    static func timestamp(_ time: timespec) -> String {
        var seconds = time.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = Int(time.tv_nsec / 1_000_000)
        let fraction = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)Z"
    }

    /// The bytes as the inside of a C string literal.
    static func escaped(_ bytes: some Collection<UInt8>) -> String {
        var text = ""
        for byte in bytes {
            switch byte {
            case 0x0A: text += "\\n"
            case 0x0D: text += "\\r"
            case 0x09: text += "\\t"
            case 0x5C: text += "\\\\"
            case 0x22: text += "\\\""
            case 0x20...0x7E: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + hexDigits[Int(byte >> 4)] + hexDigits[Int(byte & 0xF)]
            }
        }
        return text
    }

    private static let hexDigits = (0..<16).map { String($0, radix: 16) }

    private static func now() -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return time
    }

    private func append(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
