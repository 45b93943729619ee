import TetherCommandLine
import TetherLibC
import TetherPresenter
import TetherSimulator

/// A device description file (`--device FILE`, or `device=FILE` in a `tether run`
/// port's settings): a strict JSON object whose keys are the device options' long
/// names without `--` (``DeviceSettings/options``) and whose values are what those
/// options take, e.g.
///
/// ```json
/// { "description": "Quectel modem on the bench", "dialect": "at", "eol": "cr",
///   "urc": ["^SYSSTART"], "baud": 9600, "parity": "none" }
/// ```
///
/// A flag takes `true` or `false`, a repeatable option a list, a number may be written
/// as a number or a string; `description` is free text for people. See docs/DIALECTS.md,
/// "Device description files".
public enum DeviceDescription {
    /// Reads the file at `path` into a layer of settings (``parse(_:file:)``).
    ///
    /// - Throws: ``UsageError``: `The device description 'PATH' does not exist` (or `is
    ///   a directory, not a file`, `cannot be read`), or what ``parse(_:file:)`` throws.
    public static func load(_ path: String) throws(UsageError) -> SettingsLayer {
        guard let data = FileSystem.contents(atPath: path) else {
            let kind = FileSystem.kind(atPath: path)
            let reason =
                kind == nil ? "does not exist" : kind == .directory ? "is a directory, not a file" : "cannot be read"
            throw UsageError("The device description \(Quoted(path)) \(reason)")
        }
        return try parse(data, file: path)
    }

    /// Reads a description's bytes (strict JSON, RFC 8259: ``StrictJSON``) into a layer
    /// of settings, each value checked by its option's parser
    /// (``SettingsLayer/set(_:to:)``).
    ///
    /// - Parameter file: the file's name as given, for messages.
    /// - Throws: ``UsageError`` reading `<file>: <key path>: <what was expected>`, e.g.
    ///   `modem.json: urc[1]: expected a string, got an object`, or `<file>: line L,
    ///   column C: not valid JSON: …` for a syntax error.
    public static func parse(_ data: [UInt8], file path: String) throws(UsageError) -> SettingsLayer {
        do {
            try StrictJSON.check(data, file: path)
        } catch {
            throw UsageError(error.description)
        }
        let document: JSONValue
        do {
            document = try JSONValue.parse(data)
        } catch {
            throw UsageError("\(path): not valid JSON: \(error)")
        }
        guard case .object(let fields) = document else {
            throw UsageError(
                "\(path): expected an object of settings, e.g. {\"dialect\": \"at\"}, got \(kind(of: document))")
        }
        var layer = SettingsLayer()
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            if key == "description" {
                guard case .string = value else {
                    throw UsageError("\(path): description: expected a string, got \(kind(of: value))")
                }
                continue
            }
            do throws(SettingError) {
                try layer.set(key, to: try texts(of: value, at: key))
            } catch {
                throw UsageError("\(path): \(error.message)")
            }
        }
        return layer
    }

    /// The name of a value's kind, for messages ("a string", "a list"…).
    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .string: "a string"
        case .int, .double: "a number"
        case .bool: "a boolean"
        case .array: "a list"
        case .object: "an object"
        case .null: "null"
        }
    }

    /// A setting's value as option values: one for a string, number or boolean, one
    /// per item of a list of strings and numbers.
    ///
    /// - Throws: ``SettingError`` naming `path` (e.g. `urc[1]`) for anything else.
    private static func texts(of value: JSONValue, at path: String) throws(SettingError) -> [String] {
        switch value {
        case .array(let items):
            var texts: [String] = []
            for (index, item) in items.enumerated() {
                guard let text = text(of: item), !isFlag(item) else {
                    throw SettingError("\(path)[\(index)]: expected a string, got \(kind(of: item))")
                }
                texts.append(text)
            }
            return texts
        default:
            guard let text = text(of: value) else {
                throw SettingError(
                    "\(path): expected a string, a number, true/false or a list, got \(kind(of: value))")
            }
            return [text]
        }
    }

    /// A string, number or boolean as an option's text (`9600`, `0.5`, `true`).
    private static func text(of value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        case .array, .object, .null: nil
        }
    }

    private static func isFlag(_ value: JSONValue) -> Bool {
        if case .bool = value { true } else { false }
    }
}
