/// What the Enter key sends in raw mode (`connect --enter`): the CR a terminal gives
/// for it, LF, or CR LF.
public enum EnterKey: String, CaseIterable, Sendable {
    case cr, lf, crlf

    /// The bytes sent for Enter.
    public var bytes: [UInt8] {
        switch self {
        case .cr: [0x0D]
        case .lf: [0x0A]
        case .crlf: [0x0D, 0x0A]
        }
    }

    /// `keys` (bytes typed in raw mode) with each CR, the Enter key, replaced by
    /// ``bytes``; every other byte as typed.
    public func mapping(_ keys: [UInt8]) -> [UInt8] {
        guard self != .cr, keys.contains(0x0D) else { return keys }
        return keys.flatMap { $0 == 0x0D ? bytes : [$0] }
    }
}
