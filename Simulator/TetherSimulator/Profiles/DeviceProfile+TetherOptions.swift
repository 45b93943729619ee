extension DeviceProfile {
    /// The `tether` options that speak to this device, in order: `--dialect`, then
    /// `--prompt` (`--prompt-regex` instead when the profile has a ``promptPattern``),
    /// `--notify-pattern` and `--error-pattern` when the profile has them (the error
    /// pattern only for the `line` and `prompt` dialects, which take it), and `--listen`
    /// for a device that speaks unasked unnamed (``listenPeriod``).
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
        if let listenPeriod { options += ["--listen", String(listenPeriod)] }
        return options
    }

    /// How long `tether` should listen before the first command, in ms: 150 for a
    /// `line` or `scpi` device that sends notifications the profile names no pattern
    /// for (its replies settle from the first, docs/DIALECTS.md, "Stray lines"), else
    /// `nil`.
    public var listenPeriod: Int? {
        guard dialect == "line" || dialect == "scpi", notificationPattern == nil, !notifications.isEmpty else {
            return nil
        }
        return 150
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
