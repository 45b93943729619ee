import Foundation

/// A simulated device described in a JSON file: identity, the dialect tether should use,
/// line framing and echo, typed properties, a command table, error style and
/// notifications. docs/PROFILES.md describes every field; ``ProfileDevice`` runs one.
///
/// Loading checks everything up front: a mistake throws a ``ProfileError`` naming the
/// file, the field (`commands[3].reply`) and what was expected.
public struct DeviceProfile: Sendable {
    /// The dialects a profile may name: tether's (`--dialect`), whose registry is in the
    /// Model, which the simulator does not import (`ProfileDialectTests` checks each).
    public static let dialects = ["line", "at", "scpi", "prompt"]

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
        identity.replacingOccurrences(of: "{serial}", with: serialNumber)
    }
    /// The tether dialect that speaks to this device: `line`, `at`, `scpi` or `prompt`.
    public let dialect: String
    /// The console prompt, sent without a line end after every reply; `nil` for none.
    public let prompt: String?
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
        "name", "description", "identity", "dialect", "prompt", "errorPattern", "notificationPattern", "input",
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
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ProfileError(file: path, field: "", message: "no such file")
        }
        if isFolder.boolValue {
            throw ProfileError(file: path, field: "", message: "is a directory; give a profile file (docs/PROFILES.md)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ProfileError(file: path, field: "", message: "cannot be read (permission denied?)")
        }
        let baseName = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return try DeviceProfile(data: data, file: path, defaultName: baseName)
    }

    /// Reads a profile from JSON text.
    ///
    /// - Parameters:
    ///   - file: The name messages use for the document.
    ///   - defaultName: The name when the document has no `name`.
    /// - Throws: ``ProfileError`` for invalid JSON or a mistake in a field.
    public init(data: Data, file: String, defaultName: String) throws(ProfileError) {
        let root = ProfileReader(value: try JSONValue.parse(data, file: file), path: "", file: file)
        let object = try root.object(keys: Self.keys)
        name = try object["name"]?.string() ?? defaultName
        description = try object["description"]?.string() ?? ""
        identity = try object["identity"]?.string() ?? ""
        let dialectReader = try object.required("dialect", "one of \(Self.dialects.joined(separator: ", "))")
        dialect = try dialectReader.string()
        guard Self.dialects.contains(dialect) else {
            throw dialectReader.error(
                "unknown dialect '\(dialect)'; expected one of \(Self.dialects.joined(separator: ", "))")
        }
        prompt = try object["prompt"]?.string()
        if dialect == "prompt", prompt?.isEmpty ?? true {
            throw ProfileError(
                file: file, field: "prompt", message: "the prompt dialect needs the console's prompt, e.g. \"=> \"")
        }
        errorPattern = try Self.pattern(object["errorPattern"])
        notificationPattern = try Self.pattern(object["notificationPattern"])
        if let inputReader = object["input"] {
            guard let input = Input(rawValue: try inputReader.string()) else {
                throw inputReader.error("expected one of any, cr, lf")
            }
            self.input = input
        } else {
            input = .any
        }
        lineStart = try object["lineStart"]?.string() ?? ""
        lineEnd = try object["lineEnd"]?.string() ?? "\r\n"
        separator = try object["separator"]?.string()
        if separator == "" { throw object["separator"]!.error("expected a non-empty separator, e.g. \";\"") }

        var properties: [ProfileProperty] = []
        for element in try object["properties"]?.array() ?? [] {
            let property = try ProfileProperty(element)
            if Self.reservedNames.contains(property.name) || properties.contains(where: { $0.name == property.name }) {
                throw element.error(
                    "the name '\(property.name)' is \(properties.contains { $0.name == property.name } ? "used twice" : "reserved"); choose another"
                )
            }
            properties.append(property)
        }
        if let echoReader = object["echo"] {
            let echo = try echoReader.object(keys: ["initial", "end"])
            if properties.contains(where: { $0.name == "echo" }) {
                throw echoReader.error("with 'echo', the bool property 'echo' is made for you; remove yours")
            }
            let initial = try echo["initial"]?.bool() ?? true
            properties.append(
                try ProfileProperty(
                    ProfileReader(
                        value: .object(["name": .string("echo"), "type": .string("bool"), "initial": .bool(initial)]),
                        path: echoReader.path, file: file)))
            echoEnd = try echo["end"]?.string() ?? "\r\n"
        } else {
            echoEnd = nil
        }
        self.properties = properties
        let scope = TemplateScope(properties: properties)
        for (index, property) in properties.enumerated() {
            if case .property(let target)? = property.drift?.toward, scope.property(target)?.kind != .number {
                throw ProfileError(
                    file: file, field: "properties[\(index)].drift.toward",
                    message: "'\(target)' is not a number property; expected a number or a number property's name")
            }
        }
        finalReply = try object["finalReply"].map { reader throws(ProfileError) in try scope.template(reader) }
        let ignoresCase = try object["ignoreCase"]?.bool() ?? false
        var commands: [ProfileCommand] = []
        for element in try object.required("commands", "an array of commands").array() {
            commands.append(try ProfileCommand(element, scope: scope, ignoresCaseByDefault: ignoresCase))
        }
        self.commands = commands
        errors = try ProfileErrors(object["errors"], scope: scope, file: file)
        if errors.queue == nil, let popping = commands.firstIndex(where: { $0.action != nil && $0.action != .reset }) {
            throw ProfileError(
                file: file, field: "commands[\(popping)].action",
                message: "error-queue actions need 'errors.queue'; add \"queue\": {} to 'errors'")
        }
        var notifications: [ProfileNotification] = []
        for element in try object["notifications"]?.array() ?? [] {
            let notification = try ProfileNotification(element, scope: scope)
            if let name = notification.name, notifications.contains(where: { $0.name == name }) {
                throw element.error("the name '\(name)' is used twice")
            }
            notifications.append(notification)
        }
        for (index, notification) in notifications.enumerated() {
            guard let after = notification.after else { continue }
            guard notifications.contains(where: { $0.name == after && $0.interval != nil }) else {
                throw ProfileError(
                    file: file, field: "notifications[\(index)].after",
                    message: "no notification named '\(after)' with 'every'; expected the name of a scheduled one")
            }
        }
        self.notifications = notifications
    }

    private static func pattern(_ reader: ProfileReader?) throws(ProfileError) -> String? {
        guard let reader else { return nil }
        let source = try reader.string()
        do {
            _ = try NSRegularExpression(pattern: source)
        } catch {
            throw reader.error("'\(source)' does not compile; expected a regular expression (ICU syntax)")
        }
        return source
    }
}
