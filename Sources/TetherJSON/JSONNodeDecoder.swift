/// Swift's `Decoder` over a ``JSONNode``: what `Decodable` types (profiles, ``JSONNode``
/// trees of any shape) are read with, in place of Foundation's `JSONDecoder`, which
/// would link most of FoundationEssentials into the binaries (docs/PERFORMANCE.md).
///
/// It decodes as `JSONDecoder` does: a whole number (`3`, `3.0`, `3e2`) is an integer
/// of any width that holds it exactly, every number a `Double` or `Float` (not one
/// that overflows to infinity), `true`/`false` are never numbers, a missing key or
/// `null` is `nil` for `decodeIfPresent`, and mismatches throw `DecodingError`.
package struct JSONNodeDecoder: Decoder {
    let node: JSONNode
    package let codingPath: [any CodingKey]
    package var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// A decoder of `node`, found at `codingPath`.
    package init(_ node: JSONNode, codingPath: [any CodingKey] = []) {
        self.node = node
        self.codingPath = codingPath
    }

    /// Decodes `type` from one JSON text.
    ///
    /// - Throws: ``JSONGrammar/Mistake`` for a syntax error, a ``JSONNode/Refusal``, or
    ///   what `type`'s `init(from:)` throws (a `DecodingError` for a mismatch).
    package static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try T(from: JSONNodeDecoder(try JSONNode.parse(bytes)))
    }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = node else { throw mismatch([String: JSONNode].self) }
        return KeyedDecodingContainer(Keyed<Key>(members: members, codingPath: codingPath))
    }

    package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = node else { throw mismatch([JSONNode].self) }
        return Unkeyed(items: items, codingPath: codingPath)
    }

    package func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(node.kind)."))
    }
}

extension JSONNodeDecoder: SingleValueDecodingContainer {
    package func decodeNil() -> Bool { node == .null }

    package func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = node else { throw mismatch(type) }
        return flag
    }

    package func decode(_ type: String.Type) throws -> String {
        guard case .string(let text) = node else { throw mismatch(type) }
        return text
    }

    package func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let text) = node, let number = Double(text) else { throw mismatch(type) }
        guard number.isFinite else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "Number \(text) is not representable in Swift."))
        }
        return number
    }

    package func decode(_ type: Float.Type) throws -> Float {
        let number = Float(try decode(Double.self))
        guard number.isFinite else { throw mismatch(type) }
        return number
    }

    package func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    package func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    package func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    package func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    package func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    package func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    package func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    package func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    package func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    package func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    package func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }

    /// A number that `T` holds exactly: digits, or a `Double` that is whole (`3.0`).
    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .number(let text) = node else { throw mismatch(type) }
        if let number = T(text) { return number }
        guard let number = Double(text), let whole = T(exactly: number) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "Number \(text) does not fit in \(type)."))
        }
        return whole
    }
}

extension JSONNodeDecoder {
    /// The members of an object.
    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONNode]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        /// The decoder of the member `key`; `null` when there is none.
        private func member(_ key: any CodingKey) -> JSONNodeDecoder {
            JSONNodeDecoder(members[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }

        /// The decoder of the member `key`, which must be there.
        private func present(_ key: Key) throws -> JSONNodeDecoder {
            guard contains(key) else {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: "No value for the key \"\(key.stringValue)\".")
                )
            }
            return member(key)
        }

        func decodeNil(forKey key: Key) throws -> Bool { try present(key).decodeNil() }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try present(key).decode(type) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try present(key).decode(type) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try present(key).decode(type) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try present(key).decode(type) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try present(key).decode(type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try present(key).decode(type) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try present(key).decode(type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try present(key).decode(type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try present(key).decode(type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try present(key).decode(type) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try present(key).decode(type) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try present(key).decode(type) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try present(key).decode(type) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try present(key).decode(type) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try T(from: present(key)) }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try present(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try present(key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { member(SuperKey()) }
        func superDecoder(forKey key: Key) throws -> any Decoder { member(key) }
    }

    /// The key `superDecoder()` uses, `super`.
    struct SuperKey: CodingKey {
        var stringValue: String { "super" }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }

    /// The position of an element in an array, for coding paths.
    struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    /// The elements of an array, in turn.
    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [JSONNode]
        let codingPath: [any CodingKey]
        private(set) var currentIndex = 0

        init(items: [JSONNode], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        /// The decoder of the next element, taken.
        private mutating func next(_ type: Any.Type) throws -> JSONNodeDecoder {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    type,
                    .init(
                        codingPath: codingPath + [IndexKey(intValue: currentIndex)],
                        debugDescription: "Unkeyed container is at end."))
            }
            defer { currentIndex += 1 }
            return JSONNodeDecoder(items[currentIndex], codingPath: codingPath + [IndexKey(intValue: currentIndex)])
        }

        mutating func decodeNil() throws -> Bool {
            guard try next(Never.self).decodeNil() else {
                currentIndex -= 1
                return false
            }
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).decode(type) }
        mutating func decode(_ type: String.Type) throws -> String { try next(type).decode(type) }
        mutating func decode(_ type: Double.Type) throws -> Double { try next(type).decode(type) }
        mutating func decode(_ type: Float.Type) throws -> Float { try next(type).decode(type) }
        mutating func decode(_ type: Int.Type) throws -> Int { try next(type).decode(type) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).decode(type) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).decode(type) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).decode(type) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).decode(type) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).decode(type) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).decode(type) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).decode(type) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).decode(type) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).decode(type) }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: next(type)) }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try next(type).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next([JSONNode].self).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder { try next(JSONNode.self) }
    }
}

extension JSONNode {
    /// What messages call the node's kind.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
