/// What the templates of one profile may refer to: its properties and the special
/// fields; checks templates and replies as they are read.
struct TemplateScope {
    /// The profile's properties, in order.
    let properties: [ProfileProperty]

    /// The property named `name`.
    func property(_ name: String) -> ProfileProperty? {
        properties.first { $0.name == name }
    }

    /// Reads one template.
    ///
    /// - Parameters:
    ///   - captures: How many `{n}` captures are available (a command's regex groups).
    ///   - isError: Whether `{code}` and `{message}` are available.
    func template(_ reader: ProfileReader, captures: Int = 0, isError: Bool = false) throws(ProfileError)
        -> ReplyTemplate
    {
        let names = properties.map(\.name) + ReplyTemplate.commonFields + (isError ? ReplyTemplate.errorFields : [])
        let formattable = Set(properties.filter { $0.kind == .number || $0.kind == .int }.map(\.name))
        return try ReplyTemplate(reader, fields: names, formattable: formattable, captures: captures)
    }

    /// Reads a reply: a template, an array of templates (one per line), or a choice
    /// `{"by": "<property>", "cases": {"<value as shown>": reply, …}, "default": reply}`.
    func reply(_ reader: ProfileReader, captures: Int = 0, isError: Bool = false) throws(ProfileError)
        -> ProfileReply
    {
        switch reader.value {
        case .string, .array:
            return .lines(try templates(reader, captures: captures, isError: isError))
        case .object:
            let object = try reader.object(keys: ["by", "cases", "default"])
            let byReader = try object.required("by", "the name of the property that chooses the reply")
            let name = try byReader.string()
            guard let property = property(name) else {
                throw byReader.error(
                    "unknown property '\(name)'; expected one of: \(properties.map(\.name).joined(separator: ", "))")
            }
            let casesReader = try object.required("cases", "an object: the property's value as shown → reply")
            guard case .object(let members) = casesReader.value else { throw casesReader.expected("an object") }
            var cases: [String: [ReplyTemplate]] = [:]
            for key in members.keys.sorted() {
                let caseReader = ProfileReader(value: members[key]!, path: casesReader.child(key), file: reader.file)
                cases[key] = try templates(caseReader, captures: captures, isError: isError)
            }
            let fallback = try object["default"].map { reader throws(ProfileError) in
                try templates(reader, captures: captures, isError: isError)
            }
            let shown: [String] =
                switch property.kind {
                case .bool: [property.boolText.off, property.boolText.on]
                case .enum: property.values
                default: []
                }
            if fallback == nil, shown.isEmpty || shown.contains(where: { cases[$0] == nil }) {
                let missing = shown.filter { cases[$0] == nil }
                throw object.reader.error(
                    missing.isEmpty
                        ? "expected a 'default' reply: the cases cannot cover every value of '\(name)'"
                        : "no case for \(missing.map { "'\($0)'" }.joined(separator: ", ")) of '\(name)'; add them or a 'default'"
                )
            }
            return .choice(property: name, cases: cases, default: fallback ?? [])
        default:
            throw reader.expected("a string, an array of strings, or {\"by\", \"cases\"}")
        }
    }

    /// Reads a template or an array of templates (one per line).
    func templates(_ reader: ProfileReader, captures: Int = 0, isError: Bool = false) throws(ProfileError)
        -> [ReplyTemplate]
    {
        if case .string = reader.value { return [try template(reader, captures: captures, isError: isError)] }
        var templates: [ReplyTemplate] = []
        for element in try reader.array() {
            templates.append(try template(element, captures: captures, isError: isError))
        }
        return templates
    }
}
