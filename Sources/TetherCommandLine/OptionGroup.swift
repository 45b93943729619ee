/// A set of options a command takes whole, as swift-argument-parser's `@OptionGroup`
/// takes a `ParsableArguments` type: each command lists the groups it takes
/// (``CommandSpec/sections``),
/// so an option added to a group reaches the commands that list it and no other, and
/// the rules between a group's options are its one ``validate(_:)``.
///
/// A group whose options are its fields is a ``FieldOptionGroup``; a group may also
/// list declarations made elsewhere (``options``).
public protocol OptionGroup: SendableMetatype {
    /// Its heading in `--help-all` and the man page, without the colon, e.g. `SERIAL OPTIONS`.
    static var title: String { get }
    /// Whether `--help` shows its options (under `OPTIONS:`); else only `--help-all` does.
    static var isCommon: Bool { get }
    /// Its options, in help order.
    static var options: [OptionDeclaration] { get }
    /// Checks the rules between its options once the command line is parsed.
    ///
    /// - Throws: ``UsageError`` naming the options that do not go together.
    static func validate(_ arguments: ParsedArguments) throws(UsageError)
}

extension OptionGroup {
    public static var isCommon: Bool { true }
    public static func validate(_ arguments: ParsedArguments) throws(UsageError) {}

    /// The group as a section of a ``CommandSpec``.
    public static var section: OptionSection {
        OptionSection(title: title, options: options, isCommon: isCommon) { arguments throws(UsageError) in
            try validate(arguments)
        }
    }
}

/// A group whose options are its stored properties: `let timeout = Option<Duration>(…)`
/// is at once the declaration, its place in `--help` (the order of the fields) and the
/// field a command reads, typed: `arguments[ReplyOptions.self].timeout`
/// (``GroupValues``). Adding an option to the group is that one line.
public protocol FieldOptionGroup: OptionGroup, Sendable {
    /// The declarations, as fields.
    init()
}

extension FieldOptionGroup {
    /// The ``Option`` and ``Flag`` fields, in declaration order.
    public static var options: [OptionDeclaration] {
        Mirror(reflecting: Self()).children.compactMap { ($0.value as? any DeclaresOption)?.declaration }
    }
}

/// A value that declares one option: ``Option`` and ``Flag``.
public protocol DeclaresOption {
    /// Its names, placeholder, help and check.
    var declaration: OptionDeclaration { get }
}

extension Option: DeclaresOption {}
extension Flag: DeclaresOption {}

/// The values of a ``FieldOptionGroup`` on one command line, read by the group's
/// fields: `arguments[OutputOptions.self].log` is `--log`'s value (its default when
/// not given), `arguments[OutputOptions.self].quiet` whether `--quiet` was given.
@dynamicMemberLookup
public struct GroupValues<Group: FieldOptionGroup>: Sendable {
    /// The command line.
    public let arguments: ParsedArguments
    /// The group's declarations.
    public let declared: Group

    /// The value of the option `field`.
    public subscript<Value>(dynamicMember field: KeyPath<Group, Option<Value>>) -> Value {
        arguments[declared[keyPath: field]]
    }

    /// Whether the flag `field` was given.
    public subscript(dynamicMember field: KeyPath<Group, Flag>) -> Bool {
        arguments[declared[keyPath: field]]
    }
}

extension ParsedArguments {
    /// The values of `group`'s options.
    public subscript<Group: FieldOptionGroup>(group: Group.Type) -> GroupValues<Group> {
        GroupValues(arguments: self, declared: Group())
    }
}

/// A section of options in `--help` and the man page: a group's, or a command's own
/// further options (`tether-sim`'s fault options).
public struct OptionSection: Sendable {
    /// The heading without its colon, e.g. `FAULT OPTIONS (seeded by --seed)`.
    public var title: String
    /// Its options.
    public var options: [OptionDeclaration]
    /// Whether `--help` shows them (merged under `OPTIONS:`); else only `--help-all`,
    /// under ``title``.
    public var isCommon: Bool
    /// The rules between its options (``OptionGroup/validate(_:)``).
    let validate: @Sendable (ParsedArguments) throws(UsageError) -> Void

    /// A section under its own heading in `--help` (`isCommon`: `false` for one shown
    /// by `--help-all` only).
    public init(
        title: String, options: [OptionDeclaration], isCommon: Bool = true,
        validate: @escaping @Sendable (ParsedArguments) throws(UsageError) -> Void = { _ throws(UsageError) in }
    ) {
        self.title = title
        self.options = options
        self.isCommon = isCommon
        self.validate = validate
    }
}
