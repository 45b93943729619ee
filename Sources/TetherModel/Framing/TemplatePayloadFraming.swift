/// Length-prefixed payloads declared as ``PayloadHeaderTemplate``s, tried in order at
/// the start of a line — the `at` dialect's framing (ESP-AT `+IPD`, Quectel `+QIRD`,
/// and forms added with `--payload-header`).
///
/// A header is the first form, in order, that reads one; while an earlier form could
/// still read one (``PayloadHeader/incomplete``), the answer waits, so the frames do not
/// depend on how the bytes were cut into reads.
public struct TemplatePayloadFraming: PayloadFraming {
    /// The forms, in the order they are tried.
    public let templates: [PayloadHeaderTemplate]
    public let headerStarts: [UInt8]

    /// Creates the framing.
    public init(_ templates: [PayloadHeaderTemplate]) {
        self.templates = templates
        var starts: [UInt8] = []
        for template in templates where !starts.contains(template.firstByte) { starts.append(template.firstByte) }
        self.headerStarts = starts
    }

    public var separators: [UInt8] { [] }

    public func header(in bytes: ArraySlice<UInt8>) -> PayloadHeader {
        for template in templates {
            let header = template.header(in: bytes)
            if header != .notAHeader { return header }
        }
        return .notAHeader
    }

    /// The form the header at the start of `bytes` has (a line's bytes before its
    /// payload), or `nil`.
    public func template(of bytes: ArraySlice<UInt8>) -> PayloadHeaderTemplate? {
        templates.first { $0.header(in: bytes) != .notAHeader && $0.header(in: bytes) != .incomplete }
    }
}
