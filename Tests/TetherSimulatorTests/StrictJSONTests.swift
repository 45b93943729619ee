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
            try StrictJSON.check(Data(text.utf8), file: "f")
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
            try StrictJSON.check(Data(text.utf8), file: "f")
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
        try StrictJSON.check(Data(text.utf8), file: "f")
    }
}
