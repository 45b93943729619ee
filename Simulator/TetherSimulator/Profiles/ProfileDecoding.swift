import TetherLibC

/// A key of a profile object: any text, checked against the object's known keys by
/// ``Swift/Decoder/profileObject(keys:)``; or an array index, for a path built by hand
/// (`commands[3].action`).
struct ProfileKey: CodingKey, ExpressibleByStringLiteral {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(stringLiteral value: String) { self.init(stringValue: value) }

    /// The key of the array element at `index`.
    init(intValue index: Int) {
        stringValue = String(index)
        intValue = index
    }
}

/// A part of a profile whose decoding needs what the profile around it declares (its
/// properties, its `ignoreCase`): a `Decodable` with that context.
protocol DecodableInProfile {
    /// What the part needs of the profile around it.
    associatedtype DecodingConfiguration
    init(from decoder: any Decoder, configuration: DecodingConfiguration) throws
}

/// A mistake found while decoding a profile: the field's coding path and what was
/// expected. ``DeviceProfile/init(data:file:defaultName:)`` adds the file to make a
/// ``ProfileError``.
struct ProfileFieldError: Error {
    let codingPath: [any CodingKey]
    let message: String

    /// The path as messages show it, from the document's top: `commands[3].reply`.
    var field: String {
        codingPath.reduce(into: "") { path, key in
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
    }
}

/// The kind of a JSON value, for "expected X, found Y" (`true`/`false` are never numbers).
private enum JSONKind: String, Decodable {
    case null, boolean = "a boolean", number = "a number", string = "a string", array = "an array"
    case object = "an object"

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if value.decodeNil() {
            self = .null
        } else if (try? value.decode(Bool.self)) != nil {
            self = .boolean
        } else if (try? value.decode(Double.self)) != nil {
            self = .number
        } else if (try? value.decode(String.self)) != nil {
            self = .string
        } else {
            self = (try? decoder.unkeyedContainer()) != nil ? .array : .object
        }
    }
}

extension Decoder {
    /// An error about the value being decoded.
    ///
    /// - Parameter keys: The path from this value to the field, when it is deeper.
    func error(_ message: String, at keys: [any CodingKey] = []) -> ProfileFieldError {
        ProfileFieldError(codingPath: codingPath + keys, message: message)
    }

    /// "expected X, found Y" about the value being decoded.
    func expected(_ what: String) -> ProfileFieldError {
        error("expected \(what), found \((try? JSONKind(from: self))?.rawValue ?? "something else")")
    }

    /// The value decoded as `type`, or "expected `what`, found …".
    func decode<T: Decodable>(_ type: T.Type, expected what: String) throws -> T {
        do {
            return try singleValueContainer().decode(type)
        } catch is DecodingError {
            throw expected(what)
        }
    }

    /// The members of an object, after checking that every key is one of `keys`.
    ///
    /// - Throws: ``ProfileFieldError`` when the value is not an object or has another key
    ///   (the first in sorted order).
    func profileObject(keys: [String]) throws -> KeyedDecodingContainer<ProfileKey> {
        let object = try members()
        if let unknown = object.allKeys.map(\.stringValue).sorted().first(where: { !keys.contains($0) }) {
            throw object.error(
                ProfileKey(stringValue: unknown),
                "unknown field \(Quoted(unknown)); expected one of: \(keys.joined(separator: ", "))")
        }
        return object
    }

    /// The members of an object, whatever their keys.
    ///
    /// - Throws: ``ProfileFieldError`` when the value is not an object.
    func members() throws -> KeyedDecodingContainer<ProfileKey> {
        do {
            return try container(keyedBy: ProfileKey.self)
        } catch is DecodingError {
            throw expected("an object")
        }
    }

    /// Each element of the array being decoded, decoded by `element` from its own decoder.
    func elements<T>(_ element: (any Decoder) throws -> T) throws -> [T] {
        var array: any UnkeyedDecodingContainer
        do {
            array = try unkeyedContainer()
        } catch is DecodingError {
            throw expected("an array")
        }
        var elements: [T] = []
        while !array.isAtEnd { elements.append(try element(try array.superDecoder())) }
        return elements
    }

    /// A string, or an array of strings (lines).
    func lines() throws -> [String] {
        if let text = try? singleValueContainer().decode(String.self) { return [text] }
        guard (try? unkeyedContainer()) != nil else { throw expected("a string or an array of strings") }
        return try elements { element in try element.decode(String.self, expected: "a string") }
    }
}

extension KeyedDecodingContainer<ProfileKey> {
    /// An error about the member `key`.
    func error(_ key: ProfileKey, _ message: String) -> ProfileFieldError {
        ProfileFieldError(codingPath: codingPath + [key], message: message)
    }

    /// Whether the member `key` is there and not `null`.
    func has(_ key: ProfileKey) -> Bool {
        contains(key) && !((try? decodeNil(forKey: key)) ?? true)
    }

    /// The member `key` as `type` (`nil` when absent or `null`), or "expected `what`,
    /// found …".
    func value<T: Decodable>(_ type: T.Type, _ key: ProfileKey, expected what: String) throws -> T? {
        do {
            return try decodeIfPresent(type, forKey: key)
        } catch is DecodingError {
            throw try superDecoder(forKey: key).expected(what)
        }
    }

    func string(_ key: ProfileKey) throws -> String? { try value(String.self, key, expected: "a string") }
    func number(_ key: ProfileKey) throws -> Double? { try value(Double.self, key, expected: "a number") }
    func bool(_ key: ProfileKey) throws -> Bool? { try value(Bool.self, key, expected: "true or false") }
    func integer(_ key: ProfileKey) throws -> Int? {
        try value(WholeNumber.self, key, expected: "a whole number")?.value
    }

    /// The member `key` (a type that makes its own messages); `nil` when absent or `null`.
    func optional<T: Decodable>(_ type: T.Type, _ key: ProfileKey) throws -> T? {
        try decodeIfPresent(type, forKey: key)
    }

    /// The member `key` decoded with `configuration`; `nil` when absent or `null`.
    func optional<T: DecodableInProfile>(
        _ type: T.Type, _ key: ProfileKey, configuration: T.DecodingConfiguration
    ) throws -> T? {
        has(key) ? try T(from: superDecoder(forKey: key), configuration: configuration) : nil
    }

    /// `found`, or "missing; expected `what`" about the member `key`.
    func required<T>(_ found: T?, _ key: ProfileKey, _ what: String) throws -> T {
        guard let found else { throw error(key, "missing; expected \(what)") }
        return found
    }

    /// The member `key` decoded by `decode` from its own decoder; `nil` when absent or
    /// `null`.
    func member<T>(_ key: ProfileKey, _ decode: (any Decoder) throws -> T) throws -> T? {
        has(key) ? try decode(superDecoder(forKey: key)) : nil
    }

    /// Each element of the array `key`, decoded by `element` from its own decoder; `nil`
    /// when absent or `null`.
    func array<T>(_ key: ProfileKey, _ element: (any Decoder) throws -> T) throws -> [T]? {
        try member(key) { array in try array.elements(element) }
    }
}

/// A JSON number that is a whole number (`3`, `3.0`, `3e2`), as `Int`.
struct WholeNumber: Decodable {
    let value: Int

    init(from decoder: any Decoder) throws {
        guard let whole = Int(exactly: try decoder.singleValueContainer().decode(Double.self)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not whole"))
        }
        value = whole
    }
}
