/// What a command tells the view a format makes: the text options and where the
/// output goes.
package struct ViewSettings: Sendable {
    /// `--timestamps`: text prefixes each line with its time.
    package var showsTimestamps: Bool
    /// `--timestamp-format`: how text and transcripts write times.
    package var timestampStyle: TimestampStyle
    /// `--hex`: text shows received lines as hex pairs.
    package var showsHex: Bool
    /// `--quiet`: text leaves out the informational lines on standard error.
    package var isQuiet: Bool
    /// Where the view writes (standard output by default; a file for `--junit`).
    package var output: any OutputSink
    /// `--color`: when text is coloured (by default on a terminal without `NO_COLOR`).
    package var colour: ColorChoice = .auto

    /// Creates settings.
    package init(
        showsTimestamps: Bool = false, timestampStyle: TimestampStyle = .hour24, showsHex: Bool = false,
        isQuiet: Bool = false, output: any OutputSink = FileSink.standardOutput
    ) {
        self.isQuiet = isQuiet
        self.showsTimestamps = showsTimestamps
        self.timestampStyle = timestampStyle
        self.showsHex = showsHex
        self.output = output
    }

    /// A new ``Timestamper`` in ``timestampStyle`` when ``showsTimestamps``, else `nil`.
    package var timestamper: Timestamper? { showsTimestamps ? Timestamper(timestampStyle) : nil }
}
