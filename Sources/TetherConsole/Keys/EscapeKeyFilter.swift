/// Splits the bytes typed in `connect` into bytes for the device and local commands:
/// the escape key (default Ctrl-T, as tio) followed by a command key never reaches the
/// device; the escape key pressed twice sends it once.
///
/// A value with no I/O: feed it what the terminal gave, perform what it returns, in
/// order. An escape key at the end of one read and its command key at the start of
/// the next still make a command.
public struct EscapeKeyFilter: Sendable, Equatable {
    /// What to do with typed bytes.
    public enum Output: Sendable, Equatable {
        /// Bytes for the device, as typed.
        case bytes([UInt8])
        /// The key pressed after the escape key (a local command).
        case command(UInt8)
    }

    /// The escape key's byte, e.g. 0x14 for Ctrl-T.
    public let escape: UInt8
    /// Whether the escape key was the last byte seen.
    public private(set) var isArmed = false

    /// A filter for the escape key `escape`.
    public init(escape: UInt8) {
        self.escape = escape
    }

    /// Splits `bytes`, continuing from the previous call.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [Output] {
        var outputs: [Output] = []
        var pending: [UInt8] = []
        for byte in bytes {
            if isArmed {
                isArmed = false
                if byte == escape {
                    pending.append(byte)
                } else {
                    if !pending.isEmpty { outputs.append(.bytes(pending)) }
                    pending.removeAll()
                    outputs.append(.command(byte))
                }
            } else if byte == escape {
                isArmed = true
            } else {
                pending.append(byte)
            }
        }
        if !pending.isEmpty { outputs.append(.bytes(pending)) }
        return outputs
    }

    /// The byte for a `--escape` value: `ctrl-X` / `^X` for a letter X (or one of
    /// `@[\]^_`), giving 0x00–0x1F.
    public static func key(parsing text: String) -> UInt8? {
        let lowered = text.lowercased()
        let rest: Substring
        if lowered.hasPrefix("ctrl-") {
            rest = lowered.dropFirst(5)
        } else if lowered.hasPrefix("^") {
            rest = lowered.dropFirst()
        } else {
            return nil
        }
        guard rest.count == 1, let scalar = rest.unicodeScalars.first, scalar.isASCII else { return nil }
        let upper = UInt8(scalar.value) & ~0x20  // a→A
        let value = UInt8(scalar.value)
        if (0x41...0x5A).contains(upper) { return upper - 0x40 }
        if (0x40...0x5F).contains(value) { return value - 0x40 }
        return nil
    }

    /// How the key reads in help, e.g. `Ctrl-T`.
    public static func name(of key: UInt8) -> String {
        "Ctrl-" + String(UnicodeScalar(key + 0x40))
    }
}
