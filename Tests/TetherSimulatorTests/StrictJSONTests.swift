import Foundation
import Testing
import TetherSimulator

/// The strict JSON check of profiles and device description files.
@Suite struct StrictJSONTests {
    @Test(arguments: [
        (#"{"a": [1, 2,]}"#, "f: line 1, column 12"),
        ("{\n  \"a\": 1,\n}", "f: line 2, column 9"),
        (#"[{"a": 1} , ]"#, "f: line 1, column 11"),
    ])
    func trailingCommaIsRefused(text: String, place: String) {
        #expect {
            try StrictJSON.check(Array(text.utf8), file: "f")
        } throws: { error in
            (error as? ProfileError)?.description.hasPrefix(place + ": not valid JSON: a comma") == true
        }
    }

    /// A repeated key was accepted, and Foundation kept its first value where `jq` and
    /// Python keep the last.
    @Test(arguments: [
        (#"{"baud": 9600, "baud": 115200}"#, #"f: line 1, column 16: "baud" is given twice"#),
        ("{\n  \"a\": {\"x\": 1},\n  \"b\": [{\"x\": 1, \"x\": 2}]\n}", #"f: line 3, column 18: "x" is given twice"#),
    ])
    func repeatedKeyIsRefused(text: String, message: String) {
        #expect {
            try StrictJSON.check(Array(text.utf8), file: "f")
        } throws: { error in
            (error as? ProfileError)?.description.hasPrefix(message) == true
        }
    }

    /// Commas and brackets inside strings, and escaped quotes, are text.
    @Test(arguments: [
        #"{"a": ",]", "b": ",}"}"#, #"{"a": "x\",]"}"#, #"[1, 2]"#, #"{"a": {"b": []}, "c": 1}"#,
        #"[{"a": 1}, {"a": 2}]"#, #"{"a": {"a": 1}, "b": "a"}"#, #"{"k": ["k", "k"], "j": {"k": 1}}"#,
    ])
    func strictDocumentsPass(text: String) throws {
        try StrictJSON.check(Array(text.utf8), file: "f")
    }

    /// RFC 8259's grammar, where Foundation's decoder is lenient or gives no position:
    /// each mistake is named at its line and column.
    @Test(arguments: [
        ("[01]", "f: line 1, column 3: not valid JSON: unexpected '1'; a number cannot start with 0"),
        ("[1.]", "f: line 1, column 4: not valid JSON: unexpected ']'; expected a digit"),
        ("[.5]", "f: line 1, column 2: not valid JSON: unexpected '.'; expected a value"),
        ("[\"a\tb\"]", "f: line 1, column 4: not valid JSON: unexpected the byte 0x09; a control character"),
        (#"["\x"]"#, "f: line 1, column 4: not valid JSON: unexpected 'x'; not an escape"),
        (#"["\u12g4"]"#, "f: line 1, column 7: not valid JSON: unexpected 'g'; expected 4 hex digits"),
        (#"{"a" 1}"#, "f: line 1, column 6: not valid JSON: unexpected '1'; expected ':'"),
        (#"{"a": 1 "b": 2}"#, "f: line 1, column 9: not valid JSON: unexpected '\"'; expected ',' or '}'"),
        (#"{1: 2}"#, "f: line 1, column 2: not valid JSON: unexpected '1'; expected a member name"),
        ("{\"a\": tru}", "f: line 1, column 10: not valid JSON: unexpected '}'; expected 'true'"),
        ("[\"a", "f: line 1, column 4: not valid JSON: unexpected end of the document; the string is not closed"),
        ("{} x", "f: line 1, column 4: not valid JSON: unexpected 'x'; expected the end of the document"),
        ("", "f: line 1, column 1: not valid JSON: unexpected end of the document; expected a value"),
        ("{\n  \"dialect\": \"line\",\n  \"commands\": [x]\n}", "f: line 3, column 16: not valid JSON: unexpected 'x'"),
    ])
    func grammarMistakesArePlaced(text: String, message: String) {
        #expect {
            try StrictJSON.check(Array(text.utf8), file: "f")
        } throws: { error in
            (error as? ProfileError)?.description.hasPrefix(message) == true
        }
    }

    @Test(arguments: [
        "3", #""text""#, "null", "-0.5e+10", "1E-3", "[true, false, null]", #"{"é": "\u00e9\n\"\\\/"}"#, " \r\n\t[ ] ",
        "{}", #"{"a": {}, "b": [[]]}"#,
    ])
    func grammaticalDocumentsPass(text: String) throws {
        try StrictJSON.check(Array(text.utf8), file: "f")
    }

    /// Nesting is followed without recursion: a deep document is refused by the
    /// decoder later, not by a stack overflow here.
    @Test func deepNestingDoesNotExhaustTheStack() throws {
        let depth = 200_000
        try StrictJSON.check(
            Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8), file: "f")
    }
}
