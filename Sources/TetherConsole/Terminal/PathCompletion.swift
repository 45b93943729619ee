import Glibc
import TetherLibC

/// A file path typed at a question of `connect` (`f`, `y`, `x`): Tab completes it as a
/// shell does, and a leading `~` is a home folder.
enum PathCompletion {
    /// What Tab does to a typed path.
    struct Completion: Equatable {
        /// What to add to the typed text (empty when nothing is certain).
        var added: String
        /// The names that match when more than one does (folders end in `/`), sorted;
        /// empty otherwise.
        var candidates: [String]
    }

    /// `path` with a leading `~` (alone or before `/`) as `home`, and `~user` as that
    /// user's home folder (`getpwnam`); any other path as it is.
    static func expandingTilde(
        _ path: String, home: String? = Environment.variables["HOME"]
    ) -> String {
        guard path.hasPrefix("~") else { return path }
        let user = path.dropFirst().prefix { $0 != "/" }
        let rest = path.dropFirst(1 + user.count)
        if user.isEmpty {
            guard let home, !home.isEmpty else { return path }
            return home + rest
        }
        guard let entry = getpwnam(String(user)), let folder = entry.pointee.pw_dir else { return path }
        return String(cString: folder) + rest
    }

    /// Completes `typed`: the names in its folder that begin with its last component
    /// (hidden ones only when that begins with `.`). One match is added whole, with
    /// `/` for a folder; several add what they share and are listed.
    static func complete(_ typed: String, home: String? = Environment.variables["HOME"])
        -> Completion
    {
        let expanded = expandingTilde(typed, home: home)
        let slash = expanded.lastIndex(of: "/")
        let folder = slash.map { $0 == expanded.startIndex ? "/" : String(expanded[..<$0]) } ?? "."
        let stem = slash.map { String(expanded[expanded.index(after: $0)...]) } ?? expanded
        if typed.hasPrefix("~") && !typed.contains("/") {
            return Completion(added: expanded == typed ? "" : "/", candidates: [])  // ~ and ~user: their folder
        }
        let names = (FileSystem.entries(ofDirectory: folder) ?? [])
            .filter { $0.hasPrefix(stem) && (stem.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted()
        let shown = names.map { isFolder(folder + "/" + $0) ? $0 + "/" : $0 }
        guard let first = shown.first else { return Completion(added: "", candidates: []) }
        if shown.count == 1 { return Completion(added: String(first.dropFirst(stem.count)), candidates: []) }
        let shared = shown.dropFirst().reduce(first) { common, name in
            String(zip(common, name).prefix { $0 == $1 }.map(\.0))
        }
        return Completion(added: String(shared.dropFirst(stem.count)), candidates: shown)
    }

    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
