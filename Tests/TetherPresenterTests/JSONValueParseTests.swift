import Testing
import TetherJSON

@testable import TetherPresenter

/// `JSONValue.parse` gives what decoding a `JSONValue` gives for the same text, number
/// by number, and refuses what decoding refuses.
@Suite struct JSONValueParseTests {
    static let documents = [
        #"{"type":"notification","time":"2026-12-01T00:00:00.010Z","readings":{"temp":21.5,"hum":40}}"#,
        #"[0, -0, 3, 3.0, 3e2, 1.5, -1.25e-3, 9223372036854775807, 9223372036854775808, 1e300]"#,
        #"{"a":[true,false,null,"x\u00e9\n"],"b":{},"c":[],"d":{"e":[[{"f":"g"}]]}}"#,
        #""just a string""#, "42", "null", "true",
    ]

    @Test(arguments: documents) func parsingGivesWhatDecodingGives(_ text: String) throws {
        let bytes = Array(text.utf8)
        #expect(try JSONValue.parse(bytes) == JSONNodeDecoder.decode(JSONValue.self, from: bytes))
    }

    @Test func wholeNumbersAreIntegersAndOthersDoubles() throws {
        #expect(
            try JSONValue.parse(Array("[3, 3.0, 3e2, 2.5, 9223372036854775808]".utf8))
                == .array([.int(3), .int(3), .int(300), .double(2.5), .double(9_223_372_036_854_775_808)]))
    }

    @Test func aNumberBeyondDoubleIsRefusedAsDecodingRefusesIt() {
        let bytes = Array(#"{"value":1e999}"#.utf8)
        #expect(throws: JSONValue.Unrepresentable(number: "1e999")) { try JSONValue.parse(bytes) }
        #expect(throws: (any Error).self) { try JSONNodeDecoder.decode(JSONValue.self, from: bytes) }
    }

    @Test func aSyntaxErrorIsThrown() {
        #expect(throws: (any Error).self) { try JSONValue.parse(Array(#"{"a":"#.utf8)) }
    }
}
