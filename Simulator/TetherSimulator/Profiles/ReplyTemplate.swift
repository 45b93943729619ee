/// A line of text with `{…}` fields filled in when the line is sent.
///
/// Fields: `{property}` (a property's value in its own format), `{property:%.3f}` (a
/// number or int property in a printf-style format: flags, width, precision and one of
/// `d f F e E g G`), `{1}`…`{9}` (a command's regular-expression captures), `{identity}`,
/// `{serial}` (the device's serial number, see ``ProfileDevice``), `{line}` (the command line received), `{errorCount}` (entries in the error queue),
/// and in error replies `{code}` and `{message}`. `{{` and `}}` are literal braces.
struct ReplyTemplate: Equatable, Sendable, DecodableInProfile {
    /// One piece of a template.
    enum Piece: Equatable, Sendable {
        case text(String)
        /// A field: the name and an optional format (validated, e.g. `%.2f`).
        case field(String, format: String?)
    }

    /// The pieces in order.
    let pieces: [Piece]
    /// The source text, for messages.
    let source: String

    /// Names every template may use besides properties and captures.
    static let commonFields = ["identity", "serial", "line", "errorCount"]
    /// Names only error replies may use.
    static let errorFields = ["code", "message"]

    /// A template made of `pieces`, whose text is `source`.
    init(pieces: [Piece], source: String) {
        self.pieces = pieces
        self.source = source
    }

    /// A template of plain text (no fields).
    init(text: String) {
        self.init(pieces: text.isEmpty ? [] : [.text(text)], source: text)
    }

    /// Parses and checks a template: a JSON string whose fields are the properties and
    /// special names of `scope`.
    ///
    /// - Throws: ``ProfileFieldError`` for an unclosed brace, an unknown field, a capture
    ///   out of range or a bad format.
    init(from decoder: any Decoder, configuration scope: TemplateScope) throws {
        let source = try decoder.decode(String.self, expected: "a string")
        let fields = scope.fieldNames
        let captures = scope.captures
        var pieces: [Piece] = []
        var text = ""
        var rest = Substring(source)
        while let character = rest.first {
            rest = rest.dropFirst()
            if (character == "{" || character == "}") && rest.first == character {
                text.append(character)
                rest = rest.dropFirst()
            } else if character == "}" {
                throw decoder.error("a lone '}' in '\(source)'; write '}}' for a brace")
            } else if character == "{" {
                guard let close = rest.firstIndex(of: "}") else {
                    throw decoder.error("'{' without '}' in '\(source)'; write '{{' for a brace")
                }
                let body = rest[..<close]
                rest = rest[rest.index(after: close)...]
                let parts = body.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0])
                let format = parts.count > 1 ? String(parts[1]) : nil
                if let number = Int(name) {
                    guard number >= 1, number <= captures else {
                        throw decoder.error(
                            captures == 0
                                ? "'{\(name)}' in '\(source)': there are no captures here (only a command's 'regex' has them)"
                                : "'{\(name)}' in '\(source)': expected a capture from 1 to \(captures)")
                    }
                } else if !fields.contains(name) {
                    throw decoder.error(
                        "unknown property '\(name)' in '\(source)'; expected one of: \(fields.joined(separator: ", "))")
                }
                if let format {
                    guard scope.formattable.contains(name) else {
                        throw decoder.error(
                            "'{\(body)}' in '\(source)': a format applies only to number and int properties")
                    }
                    guard Self.isValidFormat(format) else {
                        throw decoder.error(
                            "'\(format)' in '\(source)' is not a number format; expected e.g. %.2f, %d, %.3E")
                    }
                }
                if !text.isEmpty { pieces.append(.text(text)) }
                text = ""
                pieces.append(.field(name, format: format))
            } else {
                text.append(character)
            }
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        self.pieces = pieces
        self.source = source
    }

    /// A template, or an array of templates (one per line).
    static func lines(from decoder: any Decoder, scope: TemplateScope) throws -> [ReplyTemplate] {
        if (try? decoder.singleValueContainer().decode(String.self)) != nil {
            return [try ReplyTemplate(from: decoder, configuration: scope)]
        }
        return try decoder.elements { element in try ReplyTemplate(from: element, configuration: scope) }
    }

    /// Fills in the fields; `value` gives a field's text for its name and format.
    func render(_ value: (String, String?) -> String) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): text
            case .field(let name, let format): value(name, format)
            }
        }.joined()
    }

    /// Whether `format` is one printf conversion of a number: `%[flags][width][.precision]`
    /// then one of `d f F e E g G`.
    static func isValidFormat(_ format: String) -> Bool {
        format.wholeMatch(of: #/%[-+ 0#]*[0-9]{0,3}(\.[0-9]{1,3})?[dfFeEgG]/#) != nil
    }
}
