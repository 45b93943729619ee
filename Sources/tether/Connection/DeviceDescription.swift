import FoundationEssentials
import Glibc
import TetherCommandLine
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
enum DeviceDescription {
    /// Reads the file at `path` into a layer of settings.
    ///
    /// - Throws: ``UsageError`` reading `<file>: <key path>: <what was expected>`, e.g.
    ///   `modem.json: urc[1]: expected a string, got an object`, or the line and column
    ///   of a JSON syntax error.
    static func load(_ path: String) throws(UsageError) -> SettingsLayer {
        guard let data = FileManager.default.contents(atPath: path) else {
            var status = stat()
            let exists = stat(path, &status) == 0
            let isFolder = exists && (status.st_mode & S_IFMT) == S_IFDIR
            let reason = !exists ? "does not exist" : isFolder ? "is a directory, not a file" : "cannot be read"
            throw UsageError("The device description '\(path)' \(reason)")
        }
        do {
            try StrictJSON.check(data, file: path)
        } catch {
            throw UsageError(error.description)
        }
        let document: SettingValue
        do {
            document = try JSONDecoder().decode(SettingValue.self, from: data)
        } catch {
            throw UsageError("\(path): not valid JSON: \(error)")
        }
        guard case .object(let fields) = document else {
            throw UsageError(
                "\(path): expected an object of settings, e.g. {\"dialect\": \"at\"}, got \(document.kind)")
        }
        var layer = SettingsLayer()
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            if key == "description" {
                guard case .text = value else {
                    throw UsageError("\(path): description: expected a string, got \(value.kind)")
                }
                continue
            }
            do throws(SettingError) {
                try layer.set(key, to: try value.texts(at: key))
            } catch {
                throw UsageError("\(path): \(error.message)")
            }
        }
        return layer
    }

    /// A JSON value of a description file.
    private enum SettingValue: Decodable {
        case text(String)
        case number(String)
        case flag(Bool)
        case list([SettingValue])
        case object([String: SettingValue])
        case null

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else if let number = try? container.decode(Int.self) {
                self = .number(String(number))
            } else if let number = try? container.decode(Double.self) {
                self = .number(String(number))
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if let items = try? container.decode([SettingValue].self) {
                self = .list(items)
            } else {
                self = .object(try container.decode([String: SettingValue].self))
            }
        }

        var kind: String {
            switch self {
            case .text: "a string"
            case .number: "a number"
            case .flag: "a boolean"
            case .list: "a list"
            case .object: "an object"
            case .null: "null"
            }
        }

        /// The value as option values: one for a string, number or boolean, one per
        /// item of a list of those.
        ///
        /// - Throws: ``SettingError`` naming `path` (e.g. `urc[1]`) for anything else.
        func texts(at path: String) throws(SettingError) -> [String] {
            switch self {
            case .text(let text), .number(let text): return [text]
            case .flag(let flag): return [String(flag)]
            case .list(let items):
                var texts: [String] = []
                for (index, item) in items.enumerated() {
                    switch item {
                    case .text(let text), .number(let text): texts.append(text)
                    default: throw SettingError("\(path)[\(index)]: expected a string, got \(item.kind)")
                    }
                }
                return texts
            case .object, .null:
                throw SettingError("\(path): expected a string, a number, true/false or a list, got \(kind)")
            }
        }
    }
}
