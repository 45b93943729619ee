/// Whether what a device sent after its last line end, and then nothing more, is a
/// console's prompt: the sign that `connect` talks to an interactive console (U-Boot,
/// a shell, Zephyr's shell) rather than a line device, and is better in raw mode.
///
/// A prompt is at most ``maximumLength`` bytes without control characters (CSI
/// sequences such as colours aside) whose last character before at most one space
/// is `>`, `#`, `$`, `%` or `:` — U-Boot's `=> `, a shell's `# ` or `user@box:~$ `,
/// Zephyr's `uart:~$ `, Python's `>>> `, `login: `. The caller asks only once the
/// device has been quiet (``ConsoleTerminal``'s tail delay, 300 ms).
enum ConsolePrompt {
    /// The longest text taken for a prompt, in bytes (CSI sequences left out).
    static let maximumLength = 64

    /// The characters a prompt ends with (before at most one space).
    static let endings: Set<UInt8> = [
        UInt8(ascii: ">"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: ":"),
    ]

    /// Whether `tail`, the bytes received after the last line end, is a prompt.
    static func isPrompt(_ tail: [UInt8]) -> Bool {
        guard let text = withoutControlSequences(tail), !text.isEmpty, text.count <= maximumLength else {
            return false
        }
        let end = text.last == UInt8(ascii: " ") ? text.dropLast() : text[...]
        guard let last = end.last else { return false }
        return endings.contains(last)
    }

    /// `bytes` without their CSI sequences (ESC `[`, parameters, a final byte from
    /// 0x40 to 0x7E); `nil` when another control character (or an unfinished
    /// sequence) is among them.
    static func withoutControlSequences(_ bytes: [UInt8]) -> [UInt8]? {
        var text: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x1B {
                guard index + 1 < bytes.endIndex, bytes[index + 1] == UInt8(ascii: "[") else { return nil }
                guard let final = bytes[(index + 2)...].firstIndex(where: { (0x40...0x7E).contains($0) }) else {
                    return nil
                }
                index = final + 1
                continue
            }
            guard byte >= 0x20, byte != 0x7F else { return nil }
            text.append(byte)
            index += 1
        }
        return text
    }
}
