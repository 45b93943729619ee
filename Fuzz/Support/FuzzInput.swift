import Foundation

/// The fuzzer's bytes read as a program: small numbers, byte strings and text, taken
/// from the front; an exhausted input gives zeros and empty strings, so every input is
/// a valid program.
struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Whether bytes remain.
    var isEmpty: Bool { position >= bytes.count }

    /// The next byte, 0 when exhausted.
    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in `0..<bound`.
    mutating func number(below bound: Int) -> Int {
        Int(byte()) % max(1, bound)
    }

    /// Up to `count` bytes.
    mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, position + count)
        defer { position = end }
        return Array(bytes[min(position, end)..<end])
    }

    /// A length-prefixed byte string of at most `limit` bytes.
    mutating func chunk(limit: Int = 255) -> [UInt8] {
        take(number(below: limit + 1))
    }

    /// Everything left.
    mutating func rest() -> [UInt8] {
        take(bytes.count - position)
    }
}

/// Writes `line` to standard error when `FUZZ_TRACE` is set (to read a saved crash:
/// `FUZZ_TRACE=1 .build/fuzz/fuzz-TARGET CRASH-FILE`).
func trace(_ line: @autoclosure () -> String) {
    guard isTracing else { return }
    FileHandle.standardError.write(Data((line() + "\n").utf8))
}

private let isTracing = ProcessInfo.processInfo.environment["FUZZ_TRACE"] != nil

/// Stops the fuzzer with `message` when `condition` is false (a crash libFuzzer saves).
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}
