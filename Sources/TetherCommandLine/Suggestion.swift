/// "Did you mean" suggestions: the nearest of some names by edit distance.
public enum Suggestion {
    /// The name in `names` nearest to `typed`, if it is near enough: at most 2 edits,
    /// or a third of `typed`'s length for longer names.
    public static func nearest(to typed: String, among names: [String]) -> String? {
        names.map { ($0, distance($0, typed)) }
            .filter { $0.1 <= max(2, typed.count / 3) }
            .min { $0.1 < $1.1 }?.0
    }

    /// The Levenshtein distance between `a` and `b`: the fewest insertions, deletions
    /// and substitutions of characters that turn one into the other.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
