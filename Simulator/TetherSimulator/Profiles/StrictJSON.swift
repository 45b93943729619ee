import Foundation

/// The syntax check of tether's JSON files (profiles, device descriptions): RFC 8259,
/// with no leniency. Foundation's parser reads the values; it also accepts a comma
/// before `]` or `}`, which RFC 8259 (and `jq`, Python's `json`) refuse, so that one
/// leniency is looked for here, outside strings. A name given twice in one object is
/// refused too: RFC 8259 §4 leaves its meaning to the reader (Foundation keeps the
/// first value, `jq` and Python the last), so a file that has one has no one meaning.
public enum StrictJSON {
    /// Checks that `data` is one strict JSON document.
    ///
    /// - Parameter file: the file's name as given, for the error.
    /// - Throws: ``ProfileError`` naming `file` and, when known, `line L, column C` of
    ///   the mistake.
    public static func check(_ data: Data, file: String) throws(ProfileError) {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let description = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            let offset = description.firstMatch(of: #/character (\d+)/#).flatMap { Int($0.output.1) }
            throw ProfileError(
                file: file, field: offset.map { position(of: $0, in: data) } ?? "",
                message: "not valid JSON: \(description)")
        }
        if let offset = trailingComma(in: data) {
            throw ProfileError(
                file: file, field: position(of: offset, in: data),
                message: "not valid JSON: a comma must be followed by another value (remove the trailing comma)")
        }
        if let (offset, name) = repeatedName(in: data) {
            throw ProfileError(
                file: file, field: position(of: offset, in: data),
                message: "\"\(name)\" is given twice in the same object (give each key once)")
        }
    }

    /// The offset and text of the first object member name that its object already
    /// has, outside strings; `nil` when there is none. Names are compared as written
    /// (escapes are not decoded). Runs on a document Foundation has already parsed.
    static func repeatedName(in data: Data) -> (offset: Int, name: String)? {
        // One entry per open container: the names an object has so far, `nil` for an array.
        var open: [Set<[UInt8]>?] = []
        var expectsName = false
        var stringStart: Int?
        var escaped = false
        let bytes = [UInt8](data)
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

    /// The offset of the first comma followed (after blanks) by `]` or `}`, outside
    /// strings; `nil` when there is none.
    static func trailingComma(in data: Data) -> Int? {
        var inString = false
        var escaped = false
        var lastComma: Int?
        for (offset, byte) in data.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                lastComma = nil
            case UInt8(ascii: ","):
                lastComma = offset
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if let lastComma { return lastComma }
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                break
            default:
                lastComma = nil
            }
        }
        return nil
    }

    /// `line L, column C` (from 1) of byte `offset`.
    static func position(of offset: Int, in data: Data) -> String {
        let prefix = data.prefix(offset)
        let line = prefix.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        let column = offset - (prefix.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return "line \(line), column \(column)"
    }
}
