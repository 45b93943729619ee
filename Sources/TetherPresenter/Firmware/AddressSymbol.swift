/// A code address found in a line by a ``CrashAddressFormat``, and what it is.
public struct AddressSymbol: Sendable, Hashable {
    /// The address.
    public var address: UInt64
    /// The field it was in (`PC`, `LR`, `backtrace`…), as the format names it.
    public var field: String
    /// What the firmware file says of it.
    public var lookup: AddressLookup

    /// Creates an annotation.
    public init(address: UInt64, field: String, lookup: AddressLookup) {
        self.address = address
        self.field = field
        self.lookup = lookup
    }

    /// The address as `0x` and eight hexadecimal digits (or more, for a 64-bit one).
    public var hexAddress: String {
        let digits = String(address, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
