/// One line of a full-screen view: text in styled pieces, so it can be cut to the
/// terminal's width without cutting an escape sequence.
struct ScreenLine: ExpressibleByStringLiteral {
    /// How a piece looks.
    enum Style: Equatable {
        case plain, heading, dim, good, caution, bad, accent
    }

    /// The pieces, in order.
    var spans: [(text: String, style: Style)] = []

    init(stringLiteral text: String) { spans = [(text, .plain)] }
    init(_ spans: [(String, Style)] = []) { self.spans = spans.map { (text: $0.0, style: $0.1) } }

    /// Appends a piece.
    mutating func append(_ text: String, _ style: Style = .plain) { spans.append((text, style)) }

    /// The text without styles.
    var text: String { spans.map(\.text).joined() }

    /// The line cut to at most `width` characters.
    func truncated(to width: Int) -> ScreenLine {
        var left = max(width, 0)
        var result = ScreenLine()
        for span in spans where left > 0 {
            let piece = String(span.text.prefix(left))
            left -= piece.count
            result.append(piece, span.style)
        }
        return result
    }
}
