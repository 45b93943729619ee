import Foundation
import Testing
import TetherJSON

/// `JSONNodeDecoder` decodes as Foundation's `JSONDecoder` did before it: the same
/// values for the same documents, and a `DecodingError` where that threw one.
@Suite struct JSONNodeDecoderTests {
    /// Any JSON value, decoded the way tether's `JSONValue` decodes one.
    enum Value: Decodable, Equatable {
        case string(String), int(Int), double(Double), bool(Bool), array([Value]), object([String: Value]), null

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let flag = try? container.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? container.decode(Int.self) {
                self = .int(number)
            } else if let number = try? container.decode(Double.self) {
                self = .double(number)
            } else if let text = try? container.decode(String.self) {
                self = .string(text)
            } else if let items = try? container.decode([Value].self) {
                self = .array(items)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }
    }

    /// A fixed shape, with optional and nested members.
    struct Record: Decodable, Equatable {
        let name: String
        let count: UInt8
        let ratio: Double?
        let tags: [String]
        let inner: [String: Int]?
    }

    @Test(arguments: [
        #"{"a": [1, 2.5, -0, 3.0, 3e2, 1E-2, 12345678901234567890], "b": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"}"#,
        #"[true, false, null, "", {}, [], {"": {"x": [null]}}]"#,
        #"  "just a string"  "#, "-12", "0.5", #"["\ud800 lone"]"#, #"["\udc00"]"#, #"["\ud800\ud800"]"#,
        #"["\u0000"]"#, "1e400",
    ])
    func anyValueDecodesAsFoundationDoes(text: String) throws {
        let expected = try? JSONDecoder().decode(Value.self, from: Data(text.utf8))
        let decoded = try? JSONNodeDecoder.decode(Value.self, from: Array(text.utf8))
        #expect(decoded == expected)
    }

    @Test(arguments: [
        #"{"name": "a", "count": 3, "tags": []}"#,
        #"{"name": "a", "count": 3.0, "ratio": null, "tags": ["x"], "inner": {"k": 1e1}}"#,
        #"{"name": "a", "count": 256, "tags": []}"#,
        #"{"name": "a", "count": -1, "tags": []}"#,
        #"{"name": "a", "count": 1.5, "tags": []}"#,
        #"{"name": 1, "count": 1, "tags": []}"#,
        #"{"count": 1, "tags": []}"#,
        #"{"name": "a", "count": true, "tags": []}"#,
        #"{"name": "a", "count": 1, "tags": "x"}"#,
        #"[]"#,
    ])
    func aRecordDecodesOrFailsAsWithFoundation(text: String) {
        let expected = try? JSONDecoder().decode(Record.self, from: Data(text.utf8))
        let decoded = try? JSONNodeDecoder.decode(Record.self, from: Array(text.utf8))
        #expect(decoded == expected)
    }

    @Test func aMismatchNamesItsCodingPath() {
        #expect {
            _ = try JSONNodeDecoder.decode(Record.self, from: Array(#"{"name": "a", "count": 1, "tags": [1]}"#.utf8))
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["tags", "0"]
        }
    }

    @Test func aSyntaxErrorIsTheGrammarsMistake() {
        #expect(throws: JSONGrammar.Mistake.self) { try JSONNode.parse(Array("[1,]".utf8)) }
    }

    @Test func nestingBeyondTheLimitIsRefusedNotACrash() {
        let depth = JSONNode.depthLimit + 1
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: JSONNode.Refusal.tooDeep) { try JSONNode.parse(Array(text.utf8)) }
        let allowed = String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1)
        #expect((try? JSONNode.parse(Array(allowed.utf8))) != nil)
    }
}
