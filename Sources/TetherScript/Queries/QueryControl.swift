import TetherCommandLine
import TetherModel
import TetherPresenter

/// A directive line of a query file that acts on the port instead of sending a command
/// (docs/SCRIPTING.md, "Query files"): `@reset NAME|STEPS`, `@break [DURATION]`, `@baud RATE`,
/// `@lines dtr=on|off rts=on|off`. A command that begins with `@` is written in quotes.
enum QueryControl: Sendable, Equatable {
    /// A line sequence: a reset, a break, DTR/RTS set.
    case sequence(LineSequence)
    /// A new baud rate for the open port (bit/s).
    case baudRate(Int)

    /// Reads a directive (the line without its `@`).
    ///
    /// - Throws: ``ScriptError`` at `location` for an unknown directive or a bad value.
    init(parsing text: Substring, at location: SourceLocation) throws(ScriptError) {
        let words = text.split(whereSeparator: \.isWhitespace)
        let name = words.first.map(String.init) ?? ""
        let values = words.dropFirst().map(String.init)
        switch name {
        case "reset":
            guard values.count == 1 else {
                throw ScriptError(at: location, "'@reset' needs one sequence, e.g. @reset esptool-classic")
            }
            do throws(LineSequence.ParseError) {
                self = .sequence(try LineSequence.parse(values[0]))
            } catch {
                throw ScriptError(at: location, "@reset: \(error)")
            }
        case "break":
            let length = values.first.map { DurationText.milliseconds(of: $0, bare: .milliseconds) } ?? .success(250)
            guard values.count <= 1, case .success(let milliseconds) = length, (1...60_000).contains(milliseconds)
            else {
                throw ScriptError(
                    at: location, "'@break' takes a length of 1ms to 1m (a bare number is ms), e.g. @break 250ms")
            }
            self = .sequence(.breakSignal(milliseconds: Int(milliseconds)))
        case "baud":
            guard values.count == 1, let rate = Int(values[0]), rate > 0, rate <= Int(Int32.max) else {
                throw ScriptError(at: location, "'@baud' takes a baud rate in bit/s, e.g. @baud 921600")
            }
            self = .baudRate(rate)
        case "lines":
            var dtr: Bool?
            var rts: Bool?
            for value in values {
                switch value {
                case "dtr=on": dtr = true
                case "dtr=off": dtr = false
                case "rts=on": rts = true
                case "rts=off": rts = false
                default: throw ScriptError(at: location, "'@lines' takes dtr=on|off and rts=on|off, got '\(value)'")
                }
            }
            guard dtr != nil || rts != nil else {
                throw ScriptError(at: location, "'@lines' takes dtr=on|off and rts=on|off")
            }
            self = .sequence(LineSequence(name: "set lines", steps: [LineStep(dtr: dtr, rts: rts)]))
        default:
            throw ScriptError(
                at: location,
                "unknown directive '@\(name)' (reset, break, baud, lines; a command that begins with @ is written in quotes)"
            )
        }
    }
}
