/// The dialects by name: the one list that `--dialect`, its help and device description
/// files read.
///
/// A value: a library user (or a test) adds a dialect of its own with
/// ``register(_:)`` on a copy of ``builtIn``.
public struct DialectRegistry: Sendable {
    /// The dialects, in the order help lists them.
    public private(set) var kinds: [DialectKind]

    /// A registry of `kinds`.
    ///
    /// - Precondition: no two share a name.
    public init(_ kinds: [DialectKind]) {
        self.kinds = []
        for kind in kinds { register(kind) }
    }

    /// tether's own dialects: `line`, `at`, `scpi`, `prompt` and `nmea` (docs/DIALECTS.md).
    public static let builtIn = DialectRegistry([
        LineDialect.kind, ATDialect.kind, SCPIDialect.kind, PromptDialect.kind, NMEADialect.kind,
    ])

    /// Adds `kind` after the others.
    ///
    /// - Precondition: no dialect has its name yet.
    public mutating func register(_ kind: DialectKind) {
        precondition(self[kind.name] == nil, "two dialects are named '\(kind.name)'")
        kinds.append(kind)
    }

    /// The dialect named `name` (exactly, e.g. `scpi`), or `nil`.
    public subscript(name: String) -> DialectKind? {
        kinds.first { $0.name == name }
    }

    /// The names of the dialects, in order.
    public var names: [String] { kinds.map(\.name) }

    /// The names of the dialects that take `setting`, in order (for help and errors).
    public func names(taking setting: DialectSetting) -> [String] {
        kinds.filter { $0.takes.contains(setting) }.map(\.name)
    }
}
