import TetherCommandLine
import TetherViews

/// The `--log` file and `--quiet`: for every command that opens a device.
package struct OutputOptions: FieldOptionGroup {
    package init() {}

    package static let title = "OUTPUT OPTIONS"

    /// The formats a `--log` file may have.
    package static let logFormats: [OutputFormat] = [.json, .transcript, .raw]

    package let log = Option<String?>(
        "--log", value: "file",
        help: """
            Also append every record to this file, beside the output --format
            chooses: JSON Lines (docs/JSON.md), or a transcript for a name ending in
            .txt or .log (--log-format); the file is created if missing.
            """, parse: Parse.nonEmpty(InvalidValue("Please provide a path.")))
    package let logFormat = Option<OutputFormat?>(
        "--log-format", value: "format",
        help: """
            The --log file's format: json (JSON Lines), transcript (each line
            with its time, direction sent > or received <, and line end) or raw
            (exactly the bytes received, nothing else, as picocom's --logfile).
            """, defaultHelp: "transcript for a .txt or .log file, else json", choices: logFormats.map(\.name)
    ) { text throws(InvalidValue) in
        guard let format = logFormats.first(where: { $0.name == text.lowercased() }) else {
            throw InvalidValue("Please provide one of \(logFormats.map { "'\($0.name)'" }.joined(separator: ", ")).")
        }
        return format
    }
    package let quiet = Flag(
        "--quiet",
        help: "Leave out the informational lines on standard error ('connected to …',\n"
            + "'waiting for …', hints); errors and warnings stay.")
}

/// How text output shows times and bytes.
package struct TextOutputOptions: FieldOptionGroup {
    package init() {}

    package static let title = "TEXT OUTPUT OPTIONS"
    package static let isCommon = false

    package let timestamps = Flag("--timestamps", help: "Prefix text output with the time of each event.")
    package let timestampFormat = Option<TimestampStyle?>(
        "--timestamp-format", value: "format",
        help: """
            How --timestamps and transcripts write times (tio's formats; implies
            --timestamps for text output):
              24hour        local time, 15:04:05.123
              24hour-start  since the session's first event, 00:00:01.250
              24hour-delta  since the previous line, 00:00:00.004
              iso8601       UTC, 2026-12-01T12:15:01.123Z
            """, defaultHelp: "24hour", parse: Parse.choice(TimestampStyle.self))
    package let hex = Flag(
        "--hex", help: "Text output shows received lines as hex pairs, line end included (4f 4b 0d 0a).")
}
