/// What the code at an address is (``AddressSymbolizing/lookUp(_:)``).
public enum AddressLookup: Sendable, Hashable {
    /// Its frames, innermost first.
    case frames([CodeFrame])
    /// No function of the firmware file holds it.
    case outside
}

/// Finds the code at addresses of a firmware image (the CLI's `--elf FILE`).
public protocol AddressSymbolizing: Sendable {
    /// The code at `address`.
    func lookUp(_ address: UInt64) -> AddressLookup
}
