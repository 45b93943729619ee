/// What the templates of one place in a profile may refer to: its properties, the
/// special fields, a command's captures and, in error replies, `{code}` and `{message}`.
/// It is the configuration templates and replies are decoded with.
struct TemplateScope {
    /// The profile's properties, in order.
    let properties: [ProfileProperty]
    /// How many `{n}` captures are available (a command's regex groups).
    var captures = 0
    /// Whether `{code}` and `{message}` are available.
    var isError = false

    /// The property named `name`.
    func property(_ name: String) -> ProfileProperty? {
        properties.first { $0.name == name }
    }

    /// The names a template may use.
    var fieldNames: [String] {
        properties.map(\.name) + ReplyTemplate.commonFields + (isError ? ReplyTemplate.errorFields : [])
    }

    /// The names a format may be applied to: number and int properties.
    var formattable: Set<String> {
        Set(properties.filter { $0.kind == .number || $0.kind == .int }.map(\.name))
    }

    /// This scope with `captures` regular-expression groups and, with `isError`, the
    /// error fields.
    func with(captures: Int = 0, isError: Bool = false) -> TemplateScope {
        TemplateScope(properties: properties, captures: captures, isError: isError)
    }
}

extension ProfileReply: DecodableInProfile {
    /// Reads a reply: a template, an array of templates (one per line), or a choice
    /// `{"by": "<property>", "cases": {"<value as shown>": reply, …}, "default": reply}`.
    init(from decoder: any Decoder, configuration scope: TemplateScope) throws {
        if (try? decoder.singleValueContainer().decode(String.self)) != nil || (try? decoder.unkeyedContainer()) != nil
        {
            self = .lines(try ReplyTemplate.lines(from: decoder, scope: scope))
            return
        }
        guard (try? decoder.container(keyedBy: ProfileKey.self)) != nil else {
            throw decoder.expected("a string, an array of strings, or {\"by\", \"cases\"}")
        }
        let object = try decoder.profileObject(keys: ["by", "cases", "default"])
        let name = try object.required(
            object.string("by"), "by", "the name of the property that chooses the reply")
        guard let property = scope.property(name) else {
            throw object.error(
                "by",
                "unknown property '\(name)'; expected one of: \(scope.properties.map(\.name).joined(separator: ", "))")
        }
        let casesObject = try object.required(
            object.member("cases") { cases in try cases.members() }, "cases",
            "an object: the property's value as shown → reply")
        var cases: [String: [ReplyTemplate]] = [:]
        for key in casesObject.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            cases[key.stringValue] = try ReplyTemplate.lines(from: casesObject.superDecoder(forKey: key), scope: scope)
        }
        let fallback = try object.member("default") { element in try ReplyTemplate.lines(from: element, scope: scope) }
        let shown: [String] =
            switch property.kind {
            case .bool: [property.boolText.off, property.boolText.on]
            case .enum: property.values
            default: []
            }
        if fallback == nil, shown.isEmpty || shown.contains(where: { cases[$0] == nil }) {
            let missing = shown.filter { cases[$0] == nil }
            throw decoder.error(
                missing.isEmpty
                    ? "expected a 'default' reply: the cases cannot cover every value of '\(name)'"
                    : "no case for \(missing.map { "'\($0)'" }.joined(separator: ", ")) of '\(name)'; add them or a 'default'"
            )
        }
        self = .choice(property: name, cases: cases, default: fallback ?? [])
    }
}
