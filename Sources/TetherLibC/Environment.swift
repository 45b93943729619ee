import Glibc

/// The process's environment variables through the C library (`environ`), where
/// Foundation's `ProcessInfo` would link most of FoundationEssentials into the
/// executables (docs/PERFORMANCE.md).
public enum Environment {
    /// Every variable, by name; for a name given twice, the first (as `getenv`).
    public static var variables: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}
