import Foundation

/// The `state` record as docs/JSON.md documents it ("The state record"): its tables
/// of fields and types, read from the document itself, so a record that drifts from
/// the document fails a test.
struct StateRecordSchema {
    /// A table: field name → documented type (`string`, `integer or null`, …).
    typealias Table = [String: String]

    /// The top-level table, and the tables of the nested objects by field name.
    let record: Table
    let nested: [String: Table]

    init() throws {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/JSON.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        guard let start = text.range(of: "## The state record\n") else { throw Missing() }
        var tables: [String: Table] = [:]
        var current = ""
        for line in text[start.upperBound...].split(separator: "\n") {
            if line.hasPrefix("## ") { break }
            if line.hasPrefix("`"), line.hasSuffix(":") {
                current = String(line.dropFirst().prefix { $0 != "`" })
            } else if line.hasPrefix("Each of `") {
                current = String(line.dropFirst(9).prefix { $0 != "`" })
            } else if line.hasPrefix("| `") {
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                tables[current, default: [:]][cells[0].trimmingCharacters(in: ["`"])] = cells[1]
            }
        }
        guard let record = tables.removeValue(forKey: "") else { throw Missing() }
        self.record = record
        nested = tables
    }

    struct Missing: Error {}

    /// What in `record` does not match the document; empty when all does.
    func problems(in record: [String: Any]) -> [String] {
        check(record, against: self.record, at: "")
    }

    private func check(_ object: [String: Any], against table: Table, at path: String) -> [String] {
        var problems: [String] = []
        // `<line>_hex` and `<line>_ending` come with any device line (docs/JSON.md,
        // "Device text, exactly").
        let documented = { (key: String) in
            table[key] != nil
                || ["_hex", "_eol_hex", "_ending"].contains {
                    key.hasSuffix($0) && table[String(key.dropLast($0.count))] != nil
                }
        }
        for key in object.keys where !documented(key) { problems.append("\(path)\(key): not documented") }
        for (key, type) in table {
            guard let value = object[key] else {
                problems.append("\(path)\(key): missing")
                continue
            }
            if !matches(value, type) { problems.append("\(path)\(key): \(value) is not \(type)") }
            if let inner = nested[key] {
                if let object = value as? [String: Any] {
                    problems += check(object, against: inner, at: "\(path)\(key).")
                } else if let array = value as? [[String: Any]] {
                    for element in array { problems += check(element, against: inner, at: "\(path)\(key)[].") }
                }
            }
        }
        return problems
    }

    private func matches(_ value: Any, _ type: String) -> Bool {
        if value is NSNull { return type.hasSuffix(" or null") }
        switch type.replacingOccurrences(of: " or null", with: "") {
        case "string": return value is String
        case "integer": return value as? Int != nil
        case "number": return value is NSNumber
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        default: return false
        }
    }
}
