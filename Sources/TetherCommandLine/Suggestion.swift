/// "Did you mean" suggestions: the nearest of some names by edit distance.
public enum Suggestion {
    /// The name in `names` nearest to `typed`, if it is near enough: at most 2 edits,
    /// or a third of `typed`'s length for longer names.
    ///
    /// A name whose length differs from `typed`'s by more than that is not compared
    /// (the distance is at least the difference): a 100 000-character argument is
    /// no slower to refuse than a short one.
    public static func nearest(to typed: String, among names: [String]) -> String? {
        let length = typed.count
        let most = max(2, length / 3)
        return names.filter { abs($0.count - length) <= most }
            .map { ($0, distance($0, typed)) }
            .filter { $0.1 <= most }
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
