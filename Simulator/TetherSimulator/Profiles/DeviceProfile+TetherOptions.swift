extension DeviceProfile {
    /// The `tether` options that speak to this device, in order: `--dialect`, then
    /// `--prompt` (`--prompt-regex` instead when the profile has a ``promptPattern``),
    /// `--notify-pattern` and `--error-pattern` when the profile has them (the error
    /// pattern only for the `line` and `prompt` dialects, which take it).
    ///
    /// - Parameter patternsMatchAnywhere: drop a leading `^` from the notification
    ///   pattern, for a device whose lines may start with noise (the garbage fault).
    public func tetherOptions(patternsMatchAnywhere: Bool = false) -> [String] {
        var options = ["--dialect", dialect]
        if let promptPattern, dialect == "prompt" {
            options += ["--prompt-regex", promptPattern]
        } else if let prompt, dialect == "prompt" {
            options += ["--prompt", prompt]
        }
        if var pattern = notificationPattern {
            if patternsMatchAnywhere, pattern.hasPrefix("^") { pattern.removeFirst() }
            options += ["--notify-pattern", pattern]
        }
        if let errorPattern, dialect == "line" || dialect == "prompt" { options += ["--error-pattern", errorPattern] }
        return options
    }

    /// ``tetherOptions(patternsMatchAnywhere:)`` as one shell command line fragment,
    /// each value in single quotes when it needs them.
    public func tetherCommandLine(patternsMatchAnywhere: Bool = false) -> String {
        tetherOptions(patternsMatchAnywhere: patternsMatchAnywhere).map { option in
            let plain = option.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./=:,".contains($0)) }
            return plain ? option : "'" + option.replacing("'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}
