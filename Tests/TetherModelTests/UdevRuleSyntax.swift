/// A checker of udev rule syntax (udev(7)), for tests: the installed systemd (252 on
/// Debian 12) has no `udevadm verify` (it came in 253).
///
/// Each non-comment line must be `KEY[{attr}]OP"value"` items separated by `, `,
/// with a known key, a match operator (`==`, `!=`) for match-only keys and an
/// assignment operator (`=`, `+=`, `-=`, `:=`) for assignment-only keys.
enum UdevRuleSyntax {
    private static let matchKeys: Set<String> = [
        "ACTION", "DEVPATH", "KERNEL", "KERNELS", "SUBSYSTEM", "SUBSYSTEMS", "DRIVER", "DRIVERS", "ATTRS", "TAGS",
        "TEST", "PROGRAM", "RESULT",
    ]
    private static let assignKeys: Set<String> = [
        "SYMLINK", "OWNER", "GROUP", "MODE", "RUN", "IMPORT", "LABEL", "GOTO", "OPTIONS", "NAME",
    ]
    private static let eitherKeys: Set<String> = ["ENV", "ATTR", "TAG", "SYSCTL"]
    private static let keysWithAttribute: Set<String> = ["ATTRS", "ATTR", "ENV", "SYSCTL", "TEST", "IMPORT", "RUN"]

    /// The problems found, one per bad line (`line N: what`); empty when all is well.
    static func check(_ text: String) throws -> [String] {
        var problems: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if let problem = problem(in: Substring(trimmed)) { problems.append("line \(number + 1): \(problem)") }
        }
        return problems
    }

    private static func problem(in line: Substring) -> String? {
        var rest = line
        var items = 0
        while !rest.isEmpty {
            if items > 0 {
                guard rest.hasPrefix(", ") else { return "expected ', ' before '\(rest)'" }
                rest = rest.dropFirst(2)
            }
            let key = rest.prefix { $0.isUppercase || $0 == "_" }
            guard !key.isEmpty else { return "expected a key at '\(rest)'" }
            rest = rest.dropFirst(key.count)
            if rest.hasPrefix("{") {
                guard keysWithAttribute.contains(String(key)), let close = rest.firstIndex(of: "}") else {
                    return "bad attribute after \(key)"
                }
                rest = rest[rest.index(after: close)...]
            }
            let op = ["==", "!=", "+=", "-=", ":=", "="].first { rest.hasPrefix($0) }
            guard let op else { return "expected an operator after \(key)" }
            rest = rest.dropFirst(op.count)
            let isMatch = op == "==" || op == "!="
            if matchKeys.contains(String(key)) {
                if !isMatch { return "\(key) can only be matched (== or !=)" }
            } else if assignKeys.contains(String(key)) {
                if isMatch && key != "NAME" { return "\(key) can only be assigned" }
            } else if !eitherKeys.contains(String(key)) {
                return "unknown key \(key)"
            }
            guard rest.hasPrefix("\""), let end = rest.dropFirst().firstIndex(of: "\"") else {
                return "the value of \(key) must be in double quotes"
            }
            rest = rest[rest.index(after: end)...]
            items += 1
        }
        return items == 0 ? "empty rule" : nil
    }
}
