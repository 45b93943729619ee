/// Text for XML and HTML documents (the JUnit report, the HTML report): the five
/// characters markup gives a meaning as entities.
enum Markup {
    /// `text` with its control characters escaped (``TextView/plain(_:)``), then
    /// ``entities(_:)``: for an attribute or an element.
    static func escaped(_ text: String) -> String { entities(TextView.plain(text)) }

    /// `&`, `<`, `>`, `"` and `'` as `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&#39;`;
    /// everything else, line ends included, as it is.
    static func entities(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
