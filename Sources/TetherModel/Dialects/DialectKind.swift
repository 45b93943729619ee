/// A dialect as the registry knows it: its name (`--dialect NAME`), a one-line summary
/// for help, the settings it takes and how to build it from them.
///
/// Each dialect declares its kind in its own file (``LineDialect/kind``…) and
/// ``DialectRegistry/builtIn`` lists them.
public struct DialectKind: Sendable {
    /// A setting was given that the dialect does not take (e.g. `--prompt` for `at`).
    public struct UnsupportedSetting: Error, Sendable, Equatable {
        /// The setting given.
        public let setting: DialectSetting
        /// The dialect's name.
        public let dialect: String
    }

    /// The name `--dialect` and device description files use, e.g. `at`.
    public let name: String
    /// What the dialect is for, in a few words (`modem: lines up to OK/ERROR`).
    public let summary: String
    /// The settings it takes; a setting it does not take may not be given.
    public let takes: Set<DialectSetting>
    private let make: @Sendable (DialectSettings) -> any Dialect

    /// Creates a kind.
    ///
    /// - Parameters:
    ///   - name: the name `--dialect` and device files give, e.g. `scpi`.
    ///   - summary: one line for `--help` and the docs.
    ///   - takes: the settings `make` reads; it is given only these (the others at
    ///     their "not given" value).
    ///   - make: builds the dialect, with its own defaults for settings not given.
    public init(
        name: String, summary: String, takes: Set<DialectSetting>,
        make: @escaping @Sendable (DialectSettings) -> any Dialect
    ) {
        self.name = name
        self.summary = summary
        self.takes = takes
        self.make = make
    }

    /// Builds the dialect from the settings given, with `defaults` (e.g. a simulator
    /// profile's prompt) for those it takes that are not given; a default it does not
    /// take is ignored.
    ///
    /// - Throws: ``UnsupportedSetting`` for the first given setting (in
    ///   ``DialectSetting``'s order) that the dialect does not take.
    public func makeDialect(
        _ settings: DialectSettings = DialectSettings(), defaults: DialectSettings = DialectSettings()
    ) throws(UnsupportedSetting) -> any Dialect {
        if let setting = settings.given.first(where: { !takes.contains($0) }) {
            throw UnsupportedSetting(setting: setting, dialect: name)
        }
        return make(takes.reduce(settings) { $0.filling($1, from: defaults) })
    }

    /// The dialect with no setting given: its defaults (e.g. its terminator).
    public var defaultDialect: any Dialect { make(DialectSettings()) }
}
