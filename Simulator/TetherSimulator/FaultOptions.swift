import TetherCommandLine

/// The simulator's fault options (`tether-sim --latency 50 …`; `tether --sim` takes the
/// same), declared once for both command lines, and the ``FaultPlan`` they describe.
public enum FaultOptions {
    /// `--latency ms`: delay every reply by this many ms.
    public static let latency = Option<Int?>(
        "--latency", value: "ms", help: "Delay every reply by this many ms.", range: .milliseconds(atLeast: 0))
    /// `--latency-step ms`: delay each reply this many ms more than the one before (a device falling behind).
    public static let latencyStep = Option<Int?>(
        "--latency-step", value: "ms",
        help: "Delay each reply this many ms more than the one before\n(a device falling behind).",
        range: .milliseconds(atLeast: 0))
    /// `--jitter ms`: delay every reply by a further random 0 … ms (order kept).
    public static let jitter = Option<Int?>(
        "--jitter", value: "ms", help: "Delay every reply by a further random 0 … ms\n(order kept).",
        range: .milliseconds(atLeast: 0))
    /// `--pace-baud rate`: send at this baud rate, 10 bits a byte (9600 ≈ 1.04 ms/byte).
    public static let paceBaud = Option<Int?>(
        "--pace-baud", value: "rate", help: "Send at this baud rate, 10 bits a byte\n(9600 ≈ 1.04 ms/byte).",
        range: .integers(atLeast: 1, "baud"))
    /// `--split bytes`: split every write into random pieces of 1 … bytes.
    public static let split = Option<Int?>(
        "--split", value: "bytes", help: "Split every write into random pieces of 1 … bytes.",
        range: .integers(atLeast: 1, "bytes"))
    /// `--split-gap ms`: the longest random gap between split pieces.
    public static let splitGap = Option<Int>(
        "--split-gap", value: "ms", help: "The longest random gap between split pieces.",
        default: Int(FaultPlan().splitGap / .milliseconds(1)), range: .milliseconds(atLeast: 0))
    /// `--garbage p`: put 1 … 8 random bytes (never CR/LF) before a line, probability 0 … 1.
    public static let garbage = Option<Double?>(
        "--garbage", value: "p", help: "Put 1 … 8 random bytes (never CR/LF) before a line,\nprobability 0 … 1.",
        range: probability)
    /// `--drop p`: leave a reply out, probability 0 … 1.
    public static let drop = Option<Double?>(
        "--drop", value: "p", help: "Leave a reply out, probability 0 … 1.", range: probability)
    /// `--duplicate p`: send a reply twice (in one write), probability 0 … 1.
    public static let duplicate = Option<Double?>(
        "--duplicate", value: "p", help: "Send a reply twice (in one write), probability 0 … 1.",
        range: probability)
    /// `--disconnect-after ms`: hang up this many ms after a client opens the port.
    public static let disconnectAfter = Option<Int?>(
        "--disconnect-after", value: "ms", help: "Hang up this many ms after a client opens the port.",
        range: .milliseconds(atLeast: 1))
    /// `--disconnect-after-lines n`: hang up after n lines have been sent to a client.
    public static let disconnectAfterLines = Option<Int?>(
        "--disconnect-after-lines", value: "n", help: "Hang up after n lines have been sent to a client.",
        range: .integers(atLeast: 1))
    /// `--reappear-after ms`: after a hang-up, come back on a new pty (same --link) this many ms later; without it the device is gone for good.
    public static let reappearAfter = Option<Int?>(
        "--reappear-after", value: "ms",
        help:
            "After a hang-up, come back on a new pty (same --link)\nthis many ms later; without it the device is gone\nfor good.",
        range: .milliseconds(atLeast: 0))
    /// `--burst n@rate`: on each open, send n '!BURST n=<i>' lines at rate lines/s (e.g. 1000@2000).
    public static let burst = Option<FaultPlan.Burst?>(
        "--burst", value: "n@rate",
        help: "On each open, send n '!BURST n=<i>' lines at rate\nlines/s (e.g. 1000@2000).",
        parse: burstPlan)
    /// `--receive-gap ms`: drop each byte received less than this many ms after the last one taken (a UART without a FIFO).
    public static let receiveGap = Option<Int?>(
        "--receive-gap", value: "ms",
        help: "Drop each byte received less than this many ms after\nthe last one taken (a UART without a FIFO).",
        range: .milliseconds(atLeast: 1))
    /// `--drain-baud rate`: read what the client sends no faster than this baud rate, 10 bits a byte (the rest waits in the pty).
    public static let drainBaud = Option<Int?>(
        "--drain-baud", value: "rate",
        help: "Read what the client sends no faster than this baud\nrate, 10 bits a byte (the rest waits in the pty).",
        range: .integers(atLeast: 1, "baud"))
    /// `--hold-input ms`: after the first bytes of a connection, read nothing for this many ms (XOFF held during a flash write).
    public static let holdInput = Option<Int?>(
        "--hold-input", value: "ms",
        help: "After the first bytes of a connection, read nothing\nfor this many ms (XOFF held during a flash write).",
        range: .milliseconds(atLeast: 1))
    /// `--sequence-numbers`: append ' seq=<n>' to every notification line (n from 1, never reset).
    public static let sequenceNumbers = Flag(
        "--sequence-numbers", help: "Append ' seq=<n>' to every notification line\n(n from 1, never reset).")

    /// Every fault option, in the order `--help` lists them.
    public static let all: [OptionDeclaration] = [
        latency.declaration, latencyStep.declaration, jitter.declaration, paceBaud.declaration, split.declaration,
        splitGap.declaration, garbage.declaration, drop.declaration, duplicate.declaration, disconnectAfter.declaration,
        disconnectAfterLines.declaration, reappearAfter.declaration, burst.declaration, sequenceNumbers.declaration,
        receiveGap.declaration, drainBaud.declaration, holdInput.declaration,
    ]

    /// The first fault option given in `arguments`, if any.
    public static func firstGiven(in arguments: ParsedArguments) -> OptionDeclaration? {
        all.first { arguments.isGiven($0) }
    }

    /// The plan the fault options in `arguments` describe, its random choices seeded by
    /// `seed`.
    ///
    /// - Throws: `UsageError` for both disconnect options, `--reappear-after`
    ///   without one, or `--split-gap` without `--split`.
    public static func plan(_ arguments: ParsedArguments, seed: UInt64) throws(UsageError) -> FaultPlan {
        var plan = FaultPlan()
        plan.seed = seed
        plan.latency = .milliseconds(arguments[latency] ?? 0)
        plan.latencyStep = .milliseconds(arguments[latencyStep] ?? 0)
        plan.jitter = .milliseconds(arguments[jitter] ?? 0)
        plan.paceBaud = arguments[paceBaud]
        plan.splitMaximum = arguments[split]
        plan.splitGap = .milliseconds(arguments[splitGap])
        if arguments.isGiven(splitGap.declaration), plan.splitMaximum == nil {
            throw UsageError("'--split-gap' needs '--split <n>' (the gap is between the pieces of a split reply)")
        }
        plan.garbageProbability = arguments[garbage] ?? 0
        plan.dropProbability = arguments[drop] ?? 0
        plan.duplicateProbability = arguments[duplicate] ?? 0
        plan.burst = arguments[burst]
        plan.sequenceNumbers = arguments[sequenceNumbers]
        plan.receiveGap = arguments[receiveGap].map { .milliseconds($0) }
        plan.drainBaud = arguments[drainBaud]
        plan.holdInput = arguments[holdInput].map { .milliseconds($0) }
        let trigger: FaultPlan.DisconnectTrigger?
        switch (arguments[disconnectAfter], arguments[disconnectAfterLines]) {
        case (nil, nil): trigger = nil
        case (let milliseconds?, nil): trigger = .after(.milliseconds(milliseconds))
        case (nil, let lines?): trigger = .afterLines(lines)
        case (_?, _?): throw UsageError("Give only one of '--disconnect-after' and '--disconnect-after-lines'")
        }
        let reappear = arguments[reappearAfter].map { Duration.milliseconds($0) }
        if let trigger {
            plan.disconnect = .init(trigger: trigger, reappearAfter: reappear)
        } else if reappear != nil {
            throw UsageError("'--reappear-after' needs '--disconnect-after <ms>' or '--disconnect-after-lines <n>'")
        }
        return plan
    }

    /// A probability: a number from 0 to 1, e.g. 0.1.
    private static let probability = ValueRange<Double>("0 to 1", kind: "a probability") {
        Double($0).flatMap { (0...1).contains($0) ? $0 : nil }
    }

    private static let burstPlan: @Sendable (String) throws(InvalidValue) -> FaultPlan.Burst = {
        text throws(InvalidValue) in
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0]), count > 0, let rate = Double(parts[1]), rate > 0,
            rate.isFinite
        else {
            throw .expected("<count>@<lines per second>, e.g. 1000@2000")
        }
        return FaultPlan.Burst(count: count, rate: rate)
    }
}
