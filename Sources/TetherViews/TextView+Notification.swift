import TetherPresenter

extension TextView {
    /// Whether a notification is written straight into the output's bytes — its line
    /// escaped in place (``ByteEscaping/appendEscaped(_:escapesBackslash:to:)``), no
    /// `String` built per line: nothing goes before it (no `--timestamps`, no run's
    /// device name), no pending text is shown, and its line is as the general path
    /// would show it unchanged — whole (terminated), without a payload, crash addresses'
    /// symbols or a backspace
    /// (``Overstrike``), not as `--hex`. The bytes are those the general path writes
    /// (`TextViewTests`); any other notification takes that path.
    func isPlainNotification(_ line: ViewLine, state: ViewState) -> Bool {
        timestamps == nil && !showsHex && state.device == nil && line.ending == .terminated
            && line.payloadRange == nil && line.symbols.isEmpty && !line.bytes.contains(Overstrike.backspace)
            && pendingLine.isEmpty
    }

    /// Appends a plain notification's line (``isPlainNotification(_:state:)``) to
    /// `output`, in the notification colour when colour is on, and its line end.
    func appendPlainNotification(_ line: ViewLine, to output: inout [UInt8]) {
        if style.enabled { output.append(contentsOf: TextStyle.notificationStart(line.level).utf8) }
        ByteEscaping.appendEscaped(line.bytes, to: &output)
        if style.enabled { output.append(contentsOf: TextStyle.end.utf8) }
        output.append(UInt8(ascii: "\n"))
    }
}
