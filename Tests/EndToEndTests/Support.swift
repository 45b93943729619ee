import Foundation
import Glibc

/// Parses JSON Lines output; every line must be a JSON object.
enum JSONLines {
    struct NotAnObject: Error { let line: String }

    static func parse(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw NotAnObject(line: String(line))
            }
            return object
        }
    }

    /// The `type` of each record.
    static func types(_ text: String) throws -> [String] {
        try parse(text).compactMap { $0["type"] as? String }
    }

    /// Waits until `monitor`'s records show a notification after a `reconnected` one.
    static func waitForNotificationAfterReconnect(of monitor: Subprocess) -> Bool {
        waitUntil {
            let types = (try? JSONLines.types(monitor.stdoutSoFar)) ?? []
            return types.drop { $0 != "reconnected" }.contains("notification")
        }
    }
}

/// A folder under /tmp removed when the value is released.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tether-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Waits until `condition` holds, checking every 20 ms (at most `timeout` seconds,
/// then once more).
///
/// - Returns: whether it held in time.
func waitUntil(timeout: Double = 30, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}
