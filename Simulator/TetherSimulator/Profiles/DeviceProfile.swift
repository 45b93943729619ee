import TetherJSON
import TetherLibC

/// A simulated device described in a JSON file: identity, the dialect tether should use,
/// line framing and echo, typed properties, a command table, error style and
/// notifications. docs/PROFILES.md describes every field; ``ProfileDevice`` runs one.
///
/// Loading checks everything up front: a mistake throws a ``ProfileError`` naming the
/// file, the field (`commands[3].reply`) and what was expected.
public struct DeviceProfile: Sendable {
    /// The dialects a profile may name: tether's (`--dialect`), whose registry is in the
    /// Model, which the simulator does not import (`ProfileDialectTests` checks each).
    public static let dialects = ["line", "at", "scpi", "prompt", "nmea"]

    /// Line endings accepted from the host.
    enum Input: String, Sendable {
        /// CR, LF or CR LF.
        case any
        /// CR; LF bytes are ignored (modems).
        case cr
        /// LF; CR bytes are ignored.
        case lf
    }

    /// The profile's name (`env`); for a file without `name`, the file's base name.
    public let name: String
    /// One line for `--list-profiles`.
    public let description: String
    /// The `{identity}` text, e.g. an `*IDN?` answer.
    public let identity: String

    /// The identity of a device with serial number `serialNumber`: ``identity`` with
    /// `{serial}` filled in.
    public func identity(serialNumber: String) -> String {
        identity.replacing("{serial}", with: serialNumber)
    }
    /// The tether dialect that speaks to this device: `line`, `at`, `scpi` or `prompt`.
    public let dialect: String
    /// The console prompt, sent without a line end after every reply; `nil` for none.
    public let prompt: String?
    /// For tether: the prompt as a regular expression (`--prompt-regex`), for a console
    /// whose prompt changes; tether then matches it instead of ``prompt``.
    public let promptPattern: String?
    /// For tether: a regular expression marking error replies (`--error-pattern`).
    public let errorPattern: String?
    /// For tether: a regular expression marking notifications (`--notify-pattern`).
    public let notificationPattern: String?

    let input: Input
    /// Sent before every output line (`"\r\n"` for AT verbose mode).
    let lineStart: String
    /// Sent after every output line.
    let lineEnd: String
    /// Sent after the echoed line, when echo is on; `nil`: the device never echoes.
    let echoEnd: String?
    /// Splits one line into several commands (`;` in SCPI); their answers are joined with it.
    let separator: String?
    /// A final result code sent after every successful command's lines (`OK` for AT).
    let finalReply: ReplyTemplate?
    /// The properties; with echo, the last one is the bool `echo`.
    let properties: [ProfileProperty]
    let commands: [ProfileCommand]
    let errors: ProfileErrors
    let notifications: [ProfileNotification]

    static let keys = [
        "name", "description", "identity", "dialect", "prompt", "promptPattern", "errorPattern", "notificationPattern",
        "input",
        "lineStart", "lineEnd", "echo", "ignoreCase", "separator", "finalReply", "properties", "commands", "errors",
        "notifications",
    ]

    /// Names templates use for other things; no property may have them.
    static let reservedNames = ReplyTemplate.commonFields + ReplyTemplate.errorFields

    /// Reads a profile file.
    ///
    /// - Parameter path: The file's path; messages name it as given.
    /// - Throws: ``ProfileError`` when the file cannot be read or has a mistake.
    public static func load(path: String) throws(ProfileError) -> DeviceProfile {
        guard let kind = FileSystem.kind(atPath: path) else {
            throw ProfileError(file: path, field: "", message: "no such file")
        }
        if kind == .directory {
            throw ProfileError(file: path, field: "", message: "is a directory; give a profile file (docs/PROFILES.md)")
        }
        guard let bytes = FileSystem.contents(atPath: path) else {
            throw ProfileError(file: path, field: "", message: "cannot be read (permission denied?)")
        }
        return try DeviceProfile(data: bytes, file: path, defaultName: baseName(of: path))
    }

    /// The file name of `path` without its folders and extension (`/a/b.json` → `b`).
    private static func baseName(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// Reads a profile from JSON text.
    ///
    /// - Parameters:
    ///   - data: The document's bytes, UTF-8 JSON (checked strictly: no duplicate keys).
    ///   - file: The name messages use for the document.
    ///   - defaultName: The name when the document has no `name`.
    /// - Throws: ``ProfileError`` for invalid JSON or a mistake in a field.
    public init(data: [UInt8], file: String, defaultName: String) throws(ProfileError) {
        try StrictJSON.check(data, file: file)
        do {
            self = try DeviceProfile(from: JSONNodeDecoder(JSONNode.parse(data)), defaultName: defaultName)
        } catch let error as ProfileFieldError {
            throw ProfileError(file: file, field: error.field, message: error.message)
        } catch {
            throw ProfileError(file: file, field: "", message: "not valid JSON: \(error)")
        }
    }

    private init(from decoder: any Decoder, defaultName: String) throws {
        let object = try decoder.profileObject(keys: Self.keys)
        name = try object.string("name") ?? defaultName
        description = try object.string("description") ?? ""
        identity = try object.string("identity") ?? ""
        let dialects = Self.dialects.joined(separator: ", ")
        dialect = try object.required(object.string("dialect"), "dialect", "one of \(dialects)")
        guard Self.dialects.contains(dialect) else {
            throw object.error("dialect", "unknown dialect \(Quoted(dialect)); expected one of \(dialects)")
        }
        prompt = try object.string("prompt")
        if dialect == "prompt", prompt?.isEmpty ?? true {
            throw decoder.error(
                "the prompt dialect needs the console's prompt, e.g. \"=> \"", at: [ProfileKey(stringValue: "prompt")])
        }
        promptPattern = try Self.pattern(object, "promptPattern")
        errorPattern = try Self.pattern(object, "errorPattern")
        notificationPattern = try Self.pattern(object, "notificationPattern")
        let input = try object.string("input")
        guard let input = Input(rawValue: input ?? "any") else {
            throw object.error("input", "expected one of any, cr, lf")
        }
        self.input = input
        lineStart = try object.string("lineStart") ?? ""
        lineEnd = try object.string("lineEnd") ?? "\r\n"
        separator = try object.string("separator")
        if separator == "" { throw object.error("separator", "expected a non-empty separator, e.g. \";\"") }

        (properties, echoEnd) = try Self.properties(object)
        let scope = TemplateScope(properties: properties)
        for (index, property) in properties.enumerated() {
            if case .property(let target)? = property.drift?.toward, scope.property(target)?.kind != .number {
                throw decoder.error(
                    "'\(target)' is not a number property; expected a number or a number property's name",
                    at: ["properties", .init(intValue: index), "drift", "toward"] as [ProfileKey])
            }
        }
        finalReply = try object.optional(ReplyTemplate.self, "finalReply", configuration: scope)
        let ignoresCase = try object.bool("ignoreCase") ?? false
        commands = try object.required(
            object.array("commands") { element in
                try ProfileCommand(from: element, configuration: (scope, ignoresCase))
            }, "commands", "an array of commands")
        errors = try object.optional(ProfileErrors.self, "errors", configuration: scope) ?? ProfileErrors()
        if errors.queue == nil, let popping = commands.firstIndex(where: { $0.action != nil && $0.action != .reset }) {
            throw decoder.error(
                "error-queue actions need 'errors.queue'; add \"queue\": {} to 'errors'",
                at: ["commands", .init(intValue: popping), "action"] as [ProfileKey])
        }
        notifications = try Self.notifications(object, decoder: decoder, scope: scope)
    }

    /// The `properties`, each name checked, and with `echo` the bool property `echo`
    /// added last; and the echo's line end (`nil`: the device never echoes).
    private static func properties(
        _ object: KeyedDecodingContainer<ProfileKey>
    ) throws -> ([ProfileProperty], echoEnd: String?) {
        var properties: [ProfileProperty] = []
        _ = try object.array("properties") { element in
            let property = try ProfileProperty(from: element)
            let isTaken = properties.contains { $0.name == property.name }
            if isTaken || Self.reservedNames.contains(property.name) {
                throw element.error(
                    "the name '\(property.name)' is \(isTaken ? "used twice" : "reserved"); choose another")
            }
            properties.append(property)
        }
        let echoEnd = try object.member("echo") { echo in
            let members = try echo.profileObject(keys: ["initial", "end"])
            if properties.contains(where: { $0.name == "echo" }) {
                throw echo.error("with 'echo', the bool property 'echo' is made for you; remove yours")
            }
            properties.append(ProfileProperty(flag: "echo", initial: try members.bool("initial") ?? true))
            return try members.string("end") ?? "\r\n"
        }
        return (properties, echoEnd)
    }

    /// The `notifications`, each name used once and each `after` naming a scheduled one.
    private static func notifications(
        _ object: KeyedDecodingContainer<ProfileKey>, decoder: any Decoder, scope: TemplateScope
    ) throws -> [ProfileNotification] {
        var notifications: [ProfileNotification] = []
        _ = try object.array("notifications") { element in
            let notification = try ProfileNotification(from: element, configuration: scope)
            if let name = notification.name, notifications.contains(where: { $0.name == name }) {
                throw element.error("the name '\(name)' is used twice")
            }
            notifications.append(notification)
        }
        for (index, notification) in notifications.enumerated() {
            guard let after = notification.after else { continue }
            guard notifications.contains(where: { $0.name == after && $0.interval != nil }) else {
                throw decoder.error(
                    "no notification named '\(after)' with 'every'; expected the name of a scheduled one",
                    at: ["notifications", .init(intValue: index), "after"] as [ProfileKey])
            }
        }
        return notifications
    }

    /// The member `key`, checked to be a regular expression that compiles.
    private static func pattern(_ object: KeyedDecodingContainer<ProfileKey>, _ key: ProfileKey) throws -> String? {
        guard let source = try object.string(key) else { return nil }
        guard ProfilePattern(source) != nil else { throw object.error(key, ProfilePattern.compileError(source)) }
        return source
    }
}
