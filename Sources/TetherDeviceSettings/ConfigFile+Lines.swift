import TetherCommandLine
import TetherLibC

extension ConfigFile {
    /// The longest section name inih keeps whole, in bytes (`MAX_SECTION` 50, less the
    /// NUL); a longer one it cuts without a word.
    static let longestName = 49

    /// Refuses, with its line's number, what inih would read otherwise than it looks:
    /// text that is not UTF-8; a NUL byte (inih stops there); a line over ``longestLine``
    /// bytes (read in pieces, each a line); an indented line (more of the value above);
    /// a section name that is empty, padded, over ``longestName`` bytes, holds `/` or
    /// `:` (no port argument could name it), has text after its `]`, or is given twice.
    ///
    /// - Throws: ``UsageError`` `PATH: line N: …`.
    static func checkLines(_ bytes: [UInt8], file path: String) throws(UsageError) {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw UsageError("\(path): not UTF-8 text")
        }
        var firstLine: [String: Int] = [:]
        var number = 0
        for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            func refuse(_ why: String) -> UsageError { UsageError("\(path): line \(number): \(why)") }
            if raw.contains(0) { throw refuse("a NUL byte; the configuration is text") }
            if raw.count > longestLine { throw refuse("\(raw.count) bytes; a line holds at most \(longestLine)") }
            var line = Substring(String(decoding: raw, as: UTF8.self))
            if number == 1, line.hasPrefix("\u{FEFF}") { line = line.dropFirst() }
            if line.hasSuffix("\r") { line = line.dropLast() }
            let text = line.drop { $0 == " " || $0 == "\t" }
            guard let first = text.first, first != "#", first != ";" else { continue }
            if text.startIndex != line.startIndex {
                throw refuse("an indented line, which inih reads as more of the value above; remove the indentation")
            }
            guard first == "[" else { continue }
            guard let close = text.firstIndex(of: "]") else { throw refuse("no ']' after the section's name") }
            let name = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...].drop { $0 == " " || $0 == "\t" }
            if let next = after.first, next != "#", next != ";" {
                throw refuse("text after the section's ']'")
            }
            if name.isEmpty { throw refuse("an empty section name; write [name]") }
            let isSpace = { (character: Character) in character == " " || character == "\t" }
            if name.first.map(isSpace) == true || name.last.map(isSpace) == true {
                throw refuse("spaces around the name \(Quoted(name))")
            }
            if name.contains("/") || name.contains(":") {
                throw refuse("the name \(Quoted(name)) holds '/' or ':', which make a path or an address of it")
            }
            if name.utf8.count > longestName {
                throw refuse("a name of \(name.utf8.count) bytes; at most \(longestName)")
            }
            if let earlier = firstLine[String(name)] {
                throw refuse("[\(name)] again (first at line \(earlier)); give each device one section")
            }
            firstLine[String(name)] = number
        }
    }
}
