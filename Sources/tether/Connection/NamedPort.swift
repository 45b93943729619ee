/// A device of `tether run`, from a `--port` value: `PATH`, `NAME=PATH`, `NAME=sim`
/// or `NAME=sim:PROFILE`; or from `--sim` (unnamed, default profile).
struct NamedPort: Equatable {
    /// The script's name for it (`devices.NAME`); `nil` for the unnamed device.
    var name: String?
    /// Where it is.
    var target: PortTarget

    /// Parses a `--port` value. A value is `NAME=…` when the text before its first
    /// `=` is an identifier (a letter or `_`, then letters, digits, `_`); otherwise
    /// the whole value is a path.
    ///
    /// - Throws: ``UsageError`` for an empty path or an unknown simulator profile.
    init(parsing value: String) throws(UsageError) {
        var rest = Substring(value)
        if let equals = value.firstIndex(of: "="), Self.isIdentifier(value[..<equals]) {
            name = String(value[..<equals])
            rest = value[value.index(after: equals)...]
        }
        guard !rest.isEmpty else {
            throw UsageError("The value '\(value)' is invalid for '--port <port>'. Please provide a path after '='.")
        }
        if name != nil, rest == "sim" || rest.hasPrefix("sim:") {
            let profile = rest == "sim" ? SimulatorProfile.defaultName : String(rest.dropFirst(4))
            guard SimulatorProfile.isValid(profile) else {
                let known = SimulatorProfile.names.map { "'\($0)'" }.joined(separator: ", ")
                throw UsageError("Unknown simulator profile '\(profile)' in '\(value)'. Profiles: \(known).")
            }
            target = .simulator(profile: profile)
        } else {
            target = .port(try ConnectionOptions.address(String(rest)))
        }
    }

    /// The unnamed simulator of `--sim`, running `--profile` (default `env`).
    init(simulatorProfile profile: String?) {
        name = nil
        target = .simulator(profile: profile ?? SimulatorProfile.defaultName)
    }

    private static func isIdentifier(_ text: Substring) -> Bool {
        guard let first = text.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return text.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }
}
