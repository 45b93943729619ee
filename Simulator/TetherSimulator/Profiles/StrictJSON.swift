import TetherJSON

/// The syntax check of tether's JSON files (profiles, device descriptions): RFC 8259,
/// with no leniency (``JSONGrammar``: no comma before `]` or `}`, no leading zeros, …).
/// A name given twice in one object is refused too: RFC 8259 §4 leaves its meaning to
/// the reader (Foundation's decoder keeps the first value, `jq` and Python the last), so
/// a file that has one has no one meaning.
package enum StrictJSON {
    /// Checks that `data` is one strict JSON document.
    ///
    /// - Parameter file: the file's name as given, for the error.
    /// - Throws: ``ProfileError`` naming `file` and `line L, column C` of the mistake.
    package static func check(_ data: [UInt8], file: String) throws(ProfileError) {
        do {
            try JSONGrammar.check(data)
        } catch {
            let advice = error.isTrailingComma ? " (remove the trailing comma)" : ""
            throw ProfileError(
                file: file, field: position(of: error.offset, in: data),
                message: "not valid JSON: \(error.message)\(advice)")
        }
        if let (offset, name) = repeatedName(in: data) {
            throw ProfileError(
                file: file, field: position(of: offset, in: data),
                message: "\"\(name)\" is given twice in the same object (give each key once)")
        }
    }

    /// The offset and text of the first object member name that its object already
    /// has, outside strings; `nil` when there is none. Names are compared as written
    /// (escapes are not decoded). Runs on a document ``JSONGrammar`` has already checked.
    static func repeatedName(in bytes: [UInt8]) -> (offset: Int, name: String)? {
        // One entry per open container: the names an object has so far, `nil` for an array.
        var open: [Set<[UInt8]>?] = []
        var expectsName = false
        var stringStart: Int?
        var escaped = false
        for (offset, byte) in bytes.enumerated() {
            if let start = stringStart {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    stringStart = nil
                    guard expectsName, let names = open.last ?? nil else { continue }
                    expectsName = false
                    let name = Array(bytes[(start + 1)..<offset])
                    if names.contains(name) { return (start, String(decoding: name, as: UTF8.self)) }
                    open[open.count - 1] = names.union([name])
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): stringStart = offset
            case UInt8(ascii: "{"):
                open.append([])
                expectsName = true
            case UInt8(ascii: "["): open.append(nil)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): _ = open.popLast()
            case UInt8(ascii: ","): expectsName = open.last.map { $0 != nil } ?? false
            default: break
            }
        }
        return nil
    }

    /// `line L, column C` (from 1) of byte `offset`.
    static func position(of offset: Int, in data: [UInt8]) -> String {
        let prefix = data.prefix(offset)
        let line = prefix.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        let column = offset - (prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return "line \(line), column \(column)"
    }
}
