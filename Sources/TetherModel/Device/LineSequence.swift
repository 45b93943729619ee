/// A timed sequence of line states — DTR, RTS and break, each step held for its time —
/// that the port loop runs by its deadlines, no thread sleeping
/// (``Device/run(_:)``): a board's reset into its bootloader, a DTR pulse, a break.
///
/// The built-in resets (``builtIn``, docs/HARDWARE.md, "Reset sequences") are those of
/// esptool's `esptool/reset.py`, step for step and with its timings; a sequence of one's
/// own is written in esptool's `--custom-reset-sequence` syntax (``parse(_:)``).
public struct LineSequence: Sendable, Equatable {
    /// The sequence's name (`esptool-classic`), or its text when it was written out.
    public var name: String
    /// The steps, in order.
    public var steps: [LineStep]

    /// Creates a sequence.
    public init(name: String, steps: [LineStep]) {
        self.name = name
        self.steps = steps
    }

    /// How long the sequence takes: the sum of its holds.
    public var duration: Duration { steps.reduce(.zero) { $0 + $1.hold } }

    /// A break of `milliseconds` ms: break on, held, then off.
    public static func breakSignal(milliseconds: Int) -> LineSequence {
        LineSequence(
            name: "break \(milliseconds) ms",
            steps: [LineStep(isBreak: true, hold: .milliseconds(milliseconds)), LineStep(isBreak: false)])
    }

    /// DTR dropped for `milliseconds` ms, then raised: the reset of Arduino-style boards
    /// (`connect`'s Ctrl-T p, `--pulse-dtr`).
    public static func dtrPulse(milliseconds: Int) -> LineSequence {
        LineSequence(
            name: "dtr-pulse", steps: [LineStep(dtr: false, hold: .milliseconds(milliseconds)), LineStep(dtr: true)])
    }

    /// The built-in sequences by name. In esptool's terms `D`/`R` set one line
    /// (1 = asserted), `U` both at once, `W` waits (seconds):
    ///
    /// - `esptool-classic`: `ClassicReset`, `D0|R1|W0.1|D1|R0|W0.05|D0` — EN low with IO0
    ///   high, then IO0 low as EN rises (boot into the ROM loader), then IO0 released;
    ///   the 50 ms is esptool's `DEFAULT_RESET_DELAY`.
    /// - `esptool-unix-tight`: `UnixTightReset`, `U0,0|U1,1|U0,1|W0.1|U1,0|W0.05|U0,0|D0`
    ///   — the same with both lines set in one `TIOCMSET`.
    /// - `esptool-usb-jtag-serial`: `USBJTAGSerialReset`,
    ///   `R0|D0|W0.1|D1|R0|W0.1|R1|D0|R1|W0.1|D0|R0` — for chips on their own USB-JTAG-serial
    ///   peripheral (ESP32-C3/S3/C6…), which passes through (1,1), never (0,0).
    /// - `esptool-hard-reset`: `HardReset`, `R1|W0.1|R0` — out of the loader into the
    ///   application — after `D0`: esptool's port has DTR off by then, a port just
    ///   opened has it on, and with both lines asserted the auto-reset circuit holds
    ///   EN high (`SimulatedBoardEndToEndTests`).
    /// - `dtr-pulse`: DTR off for 100 ms, then on (Arduino's auto-reset).
    public static let builtIn: [LineSequence] = [
        esptool("esptool-classic", "D0|R1|W0.1|D1|R0|W0.05|D0"),
        esptool("esptool-unix-tight", "U0,0|U1,1|U0,1|W0.1|U1,0|W0.05|U0,0|D0"),
        esptool("esptool-usb-jtag-serial", "R0|D0|W0.1|D1|R0|W0.1|R1|D0|R1|W0.1|D0|R0"),
        esptool("esptool-hard-reset", "D0|R1|W0.1|R0"),
        dtrPulse(milliseconds: 100),
    ]

    private static func esptool(_ name: String, _ text: String) -> LineSequence {
        LineSequence(name: name, steps: (try? steps(of: text)) ?? [])
    }

    /// The built-in sequence called `name`, if any.
    public static func named(_ name: String) -> LineSequence? {
        builtIn.first { $0.name == name }
    }

    /// Why a sequence's text was refused.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, naming the command.
        public var description: String
    }

    /// Reads a built-in name or a sequence in esptool's custom reset syntax: commands
    /// divided by `|` — `D1`/`D0` (DTR asserted or not), `R1`/`R0` (RTS), `U<d>,<r>`
    /// (both in one call), `W<seconds>` (a wait, e.g. `W0.1`), and tether's `B1`/`B0`
    /// (break on, off).
    ///
    /// - Throws: ``ParseError`` for an unknown command, a bad value or a wait outside
    ///   0 to 60 s.
    public static func parse(_ text: String) throws(ParseError) -> LineSequence {
        if let named = named(text) { return named }
        return LineSequence(name: text, steps: try steps(of: text))
    }

    /// The steps of `text` in esptool's syntax (``parse(_:)``), names not looked up: the
    /// built-ins are made with it, so it must not read ``builtIn`` but to report a mistake.
    private static func steps(of text: String) throws(ParseError) -> [LineStep] {
        var steps: [LineStep] = []
        for command in text.split(separator: "|", omittingEmptySubsequences: false) {
            let code = command.first.map(String.init) ?? ""
            let argument = command.dropFirst()
            func bit(_ text: Substring) throws(ParseError) -> Bool {
                switch text {
                case "1": return true
                case "0": return false
                default: throw ParseError(description: "'\(command)': expected \(code)0 or \(code)1")
                }
            }
            switch code {
            case "D": steps.append(LineStep(dtr: try bit(argument)))
            case "R": steps.append(LineStep(rts: try bit(argument)))
            case "B": steps.append(LineStep(isBreak: try bit(argument)))
            case "U":
                let pair = argument.split(separator: ",", omittingEmptySubsequences: false)
                guard pair.count == 2 else { throw ParseError(description: "'\(command)': expected U<dtr>,<rts>") }
                steps.append(LineStep(dtr: try bit(pair[0]), rts: try bit(pair[1])))
            case "W":
                guard let seconds = Double(argument), seconds >= 0, seconds <= 60 else {
                    throw ParseError(description: "'\(command)': expected a wait of 0 to 60 seconds, e.g. W0.1")
                }
                let hold = Duration.milliseconds(Int((seconds * 1000).rounded()))
                if steps.isEmpty { steps.append(LineStep()) }
                steps[steps.count - 1].hold += hold
            default:
                let names = builtIn.map(\.name).joined(separator: ", ")
                throw ParseError(
                    description:
                        "'\(command)' is neither a reset sequence (\(names)) nor a command of D, R, U, W or B "
                        + "(e.g. D0|R1|W0.1|D1|R0|W0.05|D0)")
            }
        }
        return steps
    }
}
