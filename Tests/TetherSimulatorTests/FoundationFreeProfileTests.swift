import Foundation
import Testing

@testable import TetherSimulator

/// What the simulator does without full Foundation stays what it did with it: the
/// number formats `String(format:)` gave, the regular-expression rules
/// `NSRegularExpression` had (docs/PROFILES.md), the blanks `.whitespaces` trimmed.
@Suite struct FoundationFreeProfileTests {
    @Test(arguments: ["%g", "%.1f", "%.3f", "%.5E", "%e", "%+08.2f", "%G", "%-10.3g", "% .2F", "%#.0f", "%.0f"])
    func numberFormatsMatchFoundation(format: String) {
        for value in [0, -0.0, 22.5, -1.25, 1e-7, 123_456_789.125, 9.2e18, .infinity, -.infinity, .nan] {
            #expect(PropertyValue.format(value, format) == String(format: format, value), "\(format) \(value)")
        }
        for value in [0, -3, 42, Int.max, Int.min] {
            #expect(PropertyValue.format(value, format) == String(format: format, Double(value)), "\(format) \(value)")
        }
    }

    @Test(arguments: ["%d", "%5d", "%-5d", "%+d", "%05d"])
    func wholeNumberFormatsMatchFoundation(format: String) {
        for value in [0, -3, 42, Int.max, Int.min] {
            let long = String(format.dropLast()) + "ld"
            #expect(PropertyValue.format(value, format) == String(format: long, value), "\(format) \(value)")
        }
        #expect(PropertyValue.format(2.5, format) == String(format: long(format), 3))
        #expect(PropertyValue.format(Double.infinity, format) == "inf")
    }

    private func long(_ format: String) -> String { String(format.dropLast()) + "ld" }

    /// `{1}`…`{9}` are checked against the groups at load time, whatever the pattern's
    /// spelling: named groups count, `(?:…)`, escaped and bracketed parentheses do not.
    @Test(arguments: [
        ("^SETP[ \\t]+(.+)$", 1), ("(a)(b(c))", 3), ("(?:a)(?<n>b)(?'m'c)", 2), ("[(](x)\\(", 1), ("A", 0),
        ("(?x) (a) # a comment (", 1), ("(a)\\Q(b", 1), ("(?i)(x)|(y)", 2),
    ])
    func captureGroupsAreCounted(source: String, count: Int) throws {
        #expect(try #require(ProfilePattern(source)).captureCount == count)
    }

    @Test(arguments: ["^(SETP", "a\\", "(?|(a)|(b))", "[z-a]"])
    func aBadPatternDoesNotCompile(source: String) {
        #expect(ProfilePattern(source) == nil)
    }

    /// The first match from the line's start must be the whole line, as an anchored
    /// `NSRegularExpression` search was checked: a later alternative is not tried.
    @Test func theFirstMatchMustBeTheWholeLine() throws {
        let pattern = try #require(ProfilePattern("A|AB"))
        #expect(pattern.wholeLineCaptures("A") == [])
        #expect(pattern.wholeLineCaptures("AB") == nil)
        #expect(try #require(ProfilePattern("AB|A")).wholeLineCaptures("AB") == [])
        #expect(try #require(ProfilePattern("B")).wholeLineCaptures("AB") == nil)
    }

    @Test func groupsThatTookNoPartAreEmpty() throws {
        let pattern = try #require(ProfilePattern("^(a)?(b)(c)?$"))
        #expect(pattern.wholeLineCaptures("b") == ["", "b", ""])
        #expect(pattern.wholeLineCaptures("abc") == ["a", "b", "c"])
    }

    /// Matched over Unicode scalars, as ICU matches code points: `e` + U+0301 is two.
    @Test func patternsMatchUnicodeScalars() throws {
        #expect(try #require(ProfilePattern("^..$")).wholeLineCaptures("e\u{301}") == [])
        #expect(try #require(ProfilePattern("^.$")).wholeLineCaptures("e\u{301}") == nil)
    }

    @Test func ignoringCaseAppliesToPatternsAndText() throws {
        let pattern = try #require(ProfilePattern("^setp (.+)$", ignoresCase: true))
        #expect(pattern.wholeLineCaptures("SETP On") == ["On"])
        #expect(try #require(ProfilePattern("^setp$")).wholeLineCaptures("SETP") == nil)
    }

    /// A command is trimmed of tabs and Unicode spaces, as `.whitespaces` trimmed it;
    /// a line feed or a form feed is not a blank.
    @Test(arguments: [
        (" \t*IDN?\u{A0}\u{3000}", "*IDN?"), ("  ", ""), ("a b", "a b"), ("\u{C}x\n", "\u{C}x\n"), ("", ""),
    ])
    func blanksAreTrimmed(line: String, trimmed: String) {
        #expect(line.trimmingBlanks() == trimmed)
        #expect(line.trimmingBlanks() == line.trimmingCharacters(in: .whitespaces))
    }
}
