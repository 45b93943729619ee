/// A JSON value and where it sits in a profile, with typed accessors whose errors name
/// the file, the field path (`commands[3].reply`) and what was expected.
struct ProfileReader {
    /// The value at ``path``.
    let value: JSONValue
    /// The field's path from the document's top, e.g. `properties[0].min`.
    let path: String
    /// The profile file, for messages.
    let file: String

    /// An error about this field.
    func error(_ message: String) -> ProfileError {
        ProfileError(file: file, field: path, message: message)
    }

    /// "expected X, found Y" about this field.
    func expected(_ what: String) -> ProfileError {
        error("expected \(what), found \(value.kind)")
    }

    /// The object's members, after checking that every key is one of `keys`.
    ///
    /// - Throws: when the value is not an object or has a key not in `keys`.
    func object(keys: [String]) throws(ProfileError) -> ProfileObject {
        guard case .object(let members) = value else { throw expected("an object") }
        for key in members.keys.sorted() where !keys.contains(key) {
            throw ProfileReader(value: members[key]!, path: child(key), file: file).error(
                "unknown field '\(key)'; expected one of: \(keys.joined(separator: ", "))")
        }
        return ProfileObject(members: members, reader: self)
    }

    /// The array's elements, each with its indexed path.
    func array() throws(ProfileError) -> [ProfileReader] {
        guard case .array(let elements) = value else { throw expected("an array") }
        return elements.enumerated().map { index, element in
            ProfileReader(value: element, path: "\(path)[\(index)]", file: file)
        }
    }

    func string() throws(ProfileError) -> String {
        guard case .string(let text) = value else { throw expected("a string") }
        return text
    }

    func number() throws(ProfileError) -> Double {
        guard case .number(let number) = value else { throw expected("a number") }
        return number
    }

    func integer() throws(ProfileError) -> Int {
        guard case .number(let number) = value, let whole = Int(exactly: number) else {
            throw expected("a whole number")
        }
        return whole
    }

    func bool() throws(ProfileError) -> Bool {
        guard case .bool(let flag) = value else { throw expected("true or false") }
        return flag
    }

    /// A string, or an array of strings (lines).
    func lines() throws(ProfileError) -> [String] {
        if case .string(let text) = value { return [text] }
        guard case .array = value else { throw expected("a string or an array of strings") }
        var lines: [String] = []
        for element in try array() { lines.append(try element.string()) }
        return lines
    }

    func child(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }
}

/// An object's members with their paths (see ``ProfileReader/object(keys:)``).
struct ProfileObject {
    let members: [String: JSONValue]
    let reader: ProfileReader

    /// The member `key`, or `nil` when absent (or `null`).
    subscript(_ key: String) -> ProfileReader? {
        guard let value = members[key], value != .null else { return nil }
        return ProfileReader(value: value, path: reader.child(key), file: reader.file)
    }

    /// The member `key`.
    ///
    /// - Throws: when it is absent.
    func required(_ key: String, _ what: String) throws(ProfileError) -> ProfileReader {
        guard let member = self[key] else {
            throw ProfileError(
                file: reader.file, field: reader.child(key), message: "missing; expected \(what)")
        }
        return member
    }
}
