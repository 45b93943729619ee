/// When tether's own text is coloured (`--color`): `auto` on a terminal unless
/// `NO_COLOR` is set to a non-empty value (no-color.org); `never` and `always` as
/// given, `NO_COLOR` or not.
public enum ColorChoice: String, CaseIterable, Sendable {
    /// Never coloured.
    case never
    /// Coloured on a terminal unless `NO_COLOR` is set to a non-empty value.
    case auto
    /// Always coloured.
    case always

    /// Whether text written to an output that `isTerminal` or not is coloured, with
    /// `environment`'s `NO_COLOR`.
    public func usesColour(onTerminal isTerminal: Bool, environment: [String: String]) -> Bool {
        switch self {
        case .never: false
        case .always: true
        case .auto: isTerminal && environment["NO_COLOR"].map(\.isEmpty) ?? true
        }
    }
}
