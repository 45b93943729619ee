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

    /// Commas and brackets inside strings, and escaped quotes, are text.
    @Test(arguments: [#"{"a": ",]", "b": ",}"}"#, #"{"a": "x\",]"}"#, #"[1, 2]"#, #"{"a": {"b": []}, "c": 1}"#])
    func strictDocumentsPass(text: String) throws {
        try StrictJSON.check(Data(text.utf8), file: "f")
    }
}
