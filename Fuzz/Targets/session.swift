import Foundation

@testable import TetherModel

/// Fuzz target `session`: the framer and every dialect through the ``Session``.
///
/// The input is a program: a dialect, a maximum line length, then steps — enqueue a
/// command, receive bytes (raw or a typical device line), let time pass, until the
/// device hangs up. Checked after each program:
/// - every request ends exactly once (a reply or a failure), and each reply, partial
///   reply and failure carries the command that was enqueued under its identity;
/// - commands are written in the order they were enqueued;
/// - a late reply answers a request that timed out, once at most;
/// - no line is invented or duplicated: every line shown is one the framer produced
///   (as the session routes it: control sequences removed, AT's leading noise apart),
///   and (except for `prompt`, whose prompt is taken out of the stream) every
///   non-empty line is shown (or, for `at`, what follows an SMS text prompt taken at
///   its start), or is the echo of a command, or was passed on as data (`at`'s data
///   mode after `CONNECT`);
/// - re-splitting the received bytes (one byte per read) shows the same lines, echoes
///   and SCPI error-queue ends apart (which
///   request a line answers may change: a command queued behind a reply is written
///   only after the read that completed it; and not for `prompt`, where a prompt seen
///   inside a line is timing by nature);
/// - the framer alone: whole, byte by byte and in the given chunks, the same lines,
///   and every byte that is not CR or LF in exactly one line or the tail.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSession(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let program = SessionProgram(&input)
    let events = program.run(splittingReads: false)
    trace("dialect \(program.dialectIndex), maximum line \(program.maximumLineLength)")
    for step in program.steps { trace("step \(step)") }
    for event in events.events { trace("event \(event)") }
    program.check(events)
    if !program.isPrompt {
        let resplit = program.run(splittingReads: true)
        for event in resplit.events { trace("resplit \(event)") }
        let kept = { (line: Line) in !program.mayGoUnshown(line.bytes, enqueued: events.enqueued) }
        require(
            resplit.lineSet.filter(kept) == events.lineSet.filter(kept),
            "re-splitting the reads changed the lines shown")
    }
    FramerCheck.check(program.reads, maximumLineLength: program.maximumLineLength)
    return 0
}

/// One step of a session program.
enum Step {
    case enqueue(String, timeout: Duration?)
    case receive([UInt8])
    case wait(Duration)
}

struct SessionProgram {
    static let dialects: [@Sendable () -> any Dialect] = [
        { LineDialect() },
        { LineDialect(terminator: .crlf, notificationPattern: try! LinePattern("^!")) },
        { ATDialect() },
        { ATDialect(unsolicitedPrefixes: ["+CMTI"]) },
        { SCPIDialect() },
        { SCPIDialect(checksErrors: true) },
        { PromptDialect() },
        { PromptDialect(prompt: "> ", errorPattern: try! LinePattern("^Error")) },
    ]
    static let deviceLines = [
        "OK", "ERROR", "+CME ERROR: 10", "RING", "+CMTI: \"SM\",1", "+CSQ: 20,99", "=> ", "> ",
        "0,\"No error\"", "-113,\"Undefined header\"", "!READING t=1", "ERR -1", "1.0", "",
    ]
    static let terminators: [[UInt8]] = [[0x0D, 0x0A], [0x0A], [0x0D], []]

    let dialectIndex: Int
    let maximumLineLength: Int
    var steps: [Step] = []
    var isPrompt: Bool { dialectIndex >= 6 }
    /// Every read, in order (for the framer check).
    var reads: [[UInt8]] {
        steps.compactMap { if case .receive(let bytes) = $0 { bytes } else { nil } }
    }

    init(_ input: inout FuzzInput) {
        dialectIndex = input.number(below: Self.dialects.count)
        maximumLineLength = 1 + input.number(below: 256) * 4
        var lastCommand = "AT"
        while !input.isEmpty, steps.count < 200 {
            switch input.number(below: 4) {
            case 0:
                let command = String(decoding: input.chunk(limit: 16), as: UTF8.self)
                let timeout = input.number(below: 4) == 0 ? nil : Duration.milliseconds(1 + input.number(below: 256))
                lastCommand = command
                steps.append(.enqueue(command, timeout: timeout))
            case 1:
                steps.append(.receive(input.chunk()))
            case 2:
                let choice = input.number(below: Self.deviceLines.count + 1)
                let text = choice < Self.deviceLines.count ? Self.deviceLines[choice] : lastCommand
                let terminator = Self.terminators[input.number(below: Self.terminators.count)]
                steps.append(.receive(Array(text.utf8) + terminator))
            default:
                steps.append(.wait(.milliseconds(input.number(below: 256) * 20)))
            }
        }
    }

    /// What a run produced.
    struct Outcome {
        var events: [SessionEvent] = []
        var writes: [[UInt8]] = []
        var enqueued: [(RequestID, String)] = []

        /// Every line in any event.
        var lineSet: Set<Line> {
            var lines: Set<Line> = []
            for event in events {
                switch event {
                case .replied(_, _, let reply, _), .lateReply(_, let reply):
                    lines.formUnion(reply.lines + [reply.finalResult].compactMap { $0 })
                case .partialReply(_, _, let taken): lines.formUnion(taken)
                case .notification(let line): lines.insert(line)
                case .sent, .failed, .pendingText, .data, .commandMode, .settling, .held: break
                }
            }
            return lines
        }
    }

    func run(splittingReads: Bool) -> Outcome {
        var session = Session(dialect: Self.dialects[dialectIndex](), maximumLineLength: maximumLineLength)
        var now = ContinuousClock.now
        var outcome = Outcome()
        func perform(_ actions: [SessionAction]) {
            for action in actions {
                switch action {
                case .write(let bytes): outcome.writes.append(bytes)
                case .emit(let event): outcome.events.append(event)
                }
            }
        }
        for step in steps {
            switch step {
            case .enqueue(let command, let timeout):
                let (id, actions) = session.enqueue(command, timeout: timeout, now: now)
                outcome.enqueued.append((id, command))
                perform(actions)
            case .receive(let bytes):
                if splittingReads {
                    for byte in bytes { perform(session.receive([byte], now: now)) }
                } else {
                    perform(session.receive(bytes, now: now))
                }
            case .wait(let duration):
                now += duration
                perform(session.expire(now: now))
            }
        }
        perform(session.hangUp(reason: "fuzz", now: now))
        let (id, actions) = session.enqueue("after", timeout: nil, now: now)
        outcome.enqueued.append((id, "after"))
        perform(actions)
        return outcome
    }

    func check(_ outcome: Outcome) {
        let dialect = Self.dialects[dialectIndex]()
        let commands = Dictionary(uniqueKeysWithValues: outcome.enqueued.map { ($0.0, $0.1) })
        var ended: [RequestID: Int] = [:]
        var timedOut: [String: Int] = [:]
        var lateReplies: [String: Int] = [:]
        // Lines in replies, late replies and notifications; partial replies apart (a
        // late reply repeats the lines of the partial reply at its timeout).
        var shown: [[UInt8]: Int] = [:]
        var partial: [[UInt8]: Int] = [:]
        var sentInOrder: [RequestID] = []
        // What data mode passed on, in order: lines framed there are data, not lines.
        var data: [UInt8] = []
        func show(_ lines: [Line]) {
            for line in lines where line.ending == .terminated { shown[line.bytes, default: 0] += 1 }
        }
        for event in outcome.events {
            switch event {
            case .sent(let id, let command, _, _):
                require(commands[id] != nil, "sent an unknown request \(id)")
                if command == commands[id] && !sentInOrder.contains(id) { sentInOrder.append(id) }
            case .replied(let id, let command, let reply, _):
                require(command == commands[id], "reply to \(id) carries '\(command)'")
                ended[id, default: 0] += 1
                show(reply.lines + [reply.finalResult].compactMap { $0 })
            case .partialReply(let id, let command, let lines):
                require(command == commands[id], "partial reply to \(id) carries '\(command)'")
                for line in lines { partial[line.bytes, default: 0] += 1 }
            case .failed(let id, let command, let failure):
                require(command == commands[id], "failure of \(id) carries '\(command)'")
                ended[id, default: 0] += 1
                if case .timedOut = failure { timedOut[command, default: 0] += 1 }
            case .notification(let line):
                // A blank line is framing (Tests/TetherModelTests/BlankLineTests.swift).
                require(!line.isEmpty || line.ending != .terminated, "a blank line shown as a notification")
                show([line])
            case .data(let bytes):
                // Data mode (`at`'s CONNECT): bytes that are not lines.
                data += bytes
            case .commandMode:
                break
            case .held(let reason, let duration, let command):
                // A hold the next command waited for: never settling, never empty, and
                // it names a command enqueued.
                require(reason != .settling, "a settling hold reported as held")
                require(duration > .zero, "a hold of no time reported")
                require(commands.values.contains(command), "held names '\(command)', never enqueued")
            case .settling(let evidence):
                // Why replies settle: its line is shown as a reply or notification too.
                require(dialect.repliesAreUnmarked, "settling in a dialect whose replies are marked")
                require(evidence.line.map { outcome.lineSet.contains($0) } ?? true, "settling names a line never shown")
            case .pendingText(let line, _):
                // Progress on a line not yet ended; the line itself is shown when it ends.
                require(line.ending == .unterminated, "pending text that ended: \(line)")
            case .lateReply(let command, let reply):
                lateReplies[command, default: 0] += 1
                require(
                    lateReplies[command]! <= timedOut[command] ?? 0, "late reply to '\(command)' that did not time out")
                show(reply.lines + [reply.finalResult].compactMap { $0 })
            }
        }
        for (id, command) in outcome.enqueued {
            require(ended[id] == 1, "request \(id) '\(command)' ended \(ended[id] ?? 0) times")
        }
        let order = outcome.enqueued.map(\.0).filter { sentInOrder.contains($0) }
        require(sentInOrder == order, "commands written out of order")
        for id in sentInOrder {
            require(outcome.writes.contains(dialect.encode(commands[id]!)), "\(id) sent but never written")
        }
        guard !isPrompt else { return }
        // The session's framing: the dialect's payloads, an indefinite-length block
        // ended once the line was quiet for the partial quiet period, or at hang-up.
        var framer = LineFramer(maximumLineLength: maximumLineLength, payloadFraming: dialect.payloadFraming)
        var framed: [[UInt8]: Int] = [:]
        // What a framed line leaves after an SMS text prompt taken from its start.
        var afterPrompt: [[UInt8]: Int] = [:]
        var continuesOverlong = false
        func count(_ line: Line) {
            defer { continuesOverlong = line.ending == .overlong }
            guard line.ending == .terminated else { return }
            // The tail of an overlong line is shown as it is, unless empty (its line
            // end). Blank lines count too, though never shown as notifications (a
            // matcher may take one: `at`'s message bodies); so does a line that is
            // blank once its control sequences are removed. Only an empty piece beside
            // AT's leading noise is no line.
            let split = pieces(of: line, dialect)
            let routed = continuesOverlong ? [line.bytes] : split.count > 1 ? split.filter { !$0.isEmpty } : split
            for piece in routed {
                framed[piece, default: 0] += 1
                for rest in piecesAfterTextPrompt(piece, dialect) {
                    for restPiece in rest { afterPrompt[restPiece, default: 0] += 1 }
                }
            }
        }
        var quiet = Duration.zero
        for step in steps {
            switch step {
            case .receive(let bytes):
                if !bytes.isEmpty { quiet = .zero }
                for line in framer.append(bytes) { count(line) }
            case .wait(let duration):
                quiet += duration
                if quiet >= Session.partialQuietPeriod, let block = framer.endIndefiniteBlock() {
                    count(block)
                }
            case .enqueue:
                break
            }
        }
        if let tail = framer.finish() { count(tail) }
        for (bytes, count) in shown {
            require(
                count <= (framed[bytes] ?? 0) + (afterPrompt[bytes] ?? 0),
                "a line was shown \(count) times, framed \(framed[bytes] ?? 0)")
        }
        for (bytes, count) in framed where count > (shown[bytes] ?? 0) + (partial[bytes] ?? 0) {
            require(
                mayGoUnshown(bytes, enqueued: outcome.enqueued) || Self.isInOrder(bytes, within: data)
                    || piecesAfterTextPrompt(bytes, dialect).contains { rest in
                        rest.allSatisfy {
                            shown[$0] != nil || partial[$0] != nil || mayGoUnshown($0, enqueued: outcome.enqueued)
                        }
                    },
                "line \(bytes) framed \(count) times, shown \(shown[bytes] ?? 0)")
        }
    }

    /// The lines `line` may have been once an `at` SMS text prompt at its start was
    /// taken while it was unterminated (the line quiet at `>` and the blanks around
    /// it): what follows the `>`, without none, some or all of its leading blanks, each
    /// as the session routes it (its leading noise apart).
    private func piecesAfterTextPrompt(_ line: [UInt8], _ dialect: any Dialect) -> [[[UInt8]]] {
        guard dialect is ATDialect else { return [] }
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        let start = line.drop(while: isBlank)
        guard start.first == 0x3E else { return [] }
        let rest = start.dropFirst()
        let blanks = rest.prefix(while: isBlank).count
        return (0...blanks).map { pieces(of: Line(Array(rest.dropFirst($0))), dialect).filter { !$0.isEmpty } }
    }

    /// Whether every byte of `line` is in `data`, in the same order (a line framed
    /// in data mode, its control sequences removed, is passed on as data).
    static func isInOrder(_ line: [UInt8], within data: [UInt8]) -> Bool {
        var rest = data[...]
        for byte in line {
            guard let index = rest.firstIndex(of: byte) else { return false }
            rest = rest[(index + 1)...]
        }
        return true
    }

    /// A framed line as the session routes it: control sequences removed, and leading
    /// noise (AT) apart from the rest.
    private func pieces(of line: Line, _ dialect: any Dialect) -> [[UInt8]] {
        let cleaned = ControlSequences.cleaned(line)
        let noise = cleaned.payloadRange == nil ? dialect.leadingNoiseLength(in: cleaned) : 0
        return noise > 0
            ? [Array(cleaned.bytes.prefix(noise)), Array(cleaned.bytes.dropFirst(noise))] : [cleaned.bytes]
    }

    /// Whether a line may be taken without being shown: a blank line (part of a reply's
    /// framing), the echo of a command, the end of an SCPI error queue, or `at`'s SMS
    /// text prompt as a line of its own (`> ` then CR), which the text answers.
    func mayGoUnshown(_ bytes: [UInt8], enqueued: [(RequestID, String)]) -> Bool {
        bytes.isEmpty || isEcho(bytes, enqueued: enqueued) || endsErrorQueue(bytes) || isTextPrompt(bytes)
    }

    /// Whether `bytes` are a command's echo as a dialect tells it: by the line's text,
    /// decoded as UTF-8, so that invalid bytes compare as U+FFFD (the echo of `n\xEA\xEA`
    /// may come back as `N\xEA\xEA`). An `at` command is sent up to its first CR (the
    /// rest is text for the prompt), so its echo is that command line, blanks trimmed, in
    /// any letter case (the echo of `n\xEA\xEA\0\xFF\xEA\xEA\r…` is its part before the CR);
    /// the lines of the text after the CR are echoed once written at the prompt.
    private func isEcho(_ bytes: [UInt8], enqueued: [(RequestID, String)]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        let isAT = Self.dialects[dialectIndex]() is ATDialect
        return enqueued.contains { _, command in
            guard !isAT else {
                let (line, smsText) = ATDialect.split(Array(command.utf8))
                let commandLine = String(decoding: line, as: UTF8.self)
                return text.trimmingWhitespace().uppercased() == commandLine.trimmingWhitespace().uppercased()
                    || ATDialect.echo(ofText: smsText ?? []).contains(ATDialect.echoForm(text))
            }
            return text == command || text == command.uppercased()
        }
    }

    /// `at`'s SMS text prompt (`>`, blanks around it), 3GPP TS 27.005 §3.5.1, or the
    /// blanks after it when the line was quiet at the `>` (the prompt was answered then).
    private func isTextPrompt(_ bytes: [UInt8]) -> Bool {
        let solid = bytes.filter { $0 != 0x20 && $0 != 0x09 }
        return Self.dialects[dialectIndex]() is ATDialect && (solid == [0x3E] || solid.isEmpty)
    }

    /// With `--check-errors`, the error queue's last answer (`0,"No error"`) ends the
    /// reply and is not part of it.
    private func endsErrorQueue(_ bytes: [UInt8]) -> Bool {
        guard (Self.dialects[dialectIndex]() as? SCPIDialect)?.checksErrors == true else { return false }
        return SCPIDialect.errorCode(in: String(decoding: bytes, as: UTF8.self)) == 0
    }
}

/// The framer's own invariants over a sequence of reads.
enum FramerCheck {
    static func check(_ reads: [[UInt8]], maximumLineLength: Int) {
        let stream = reads.flatMap { $0 }
        func frame(_ pieces: [[UInt8]]) -> ([Line], [UInt8]) {
            var framer = LineFramer(maximumLineLength: maximumLineLength)
            var lines: [Line] = []
            for piece in pieces { lines += framer.append(piece) }
            return (lines, framer.partial)
        }
        let whole = frame([stream])
        require(frame(reads) == whole, "the given reads frame differently from the whole stream")
        require(frame(stream.map { [$0] }) == whole, "one byte per read frames differently")
        let kept = whole.0.reduce(0) { $0 + $1.bytes.count } + whole.1.count
        let terminators = stream.filter { $0 == 0x0A || $0 == 0x0D }.count
        require(kept + terminators == stream.count, "bytes lost or invented by the framer")
        require(whole.0.allSatisfy { $0.bytes.count <= maximumLineLength }, "a line longer than the maximum")
        // With each payload framing: the same lines and payloads however the reads cut them.
        let framings: [any PayloadFraming] = [
            ArbitraryBlockFraming(), TemplatePayloadFraming(ATDialect.builtInPayloadHeaders),
        ]
        for framing in framings {
            func frame(_ pieces: [[UInt8]]) -> [Line] {
                var framer = LineFramer(maximumLineLength: maximumLineLength, payloadFraming: framing)
                var lines: [Line] = []
                for piece in pieces { lines += framer.append(piece) }
                return lines + [framer.finish()].compactMap { $0 }
            }
            let whole = frame([stream])
            require(frame(reads) == whole, "the given reads frame payloads differently from the whole stream")
            require(frame(stream.map { [$0] }) == whole, "one byte per read frames payloads differently")
            require(whole.allSatisfy { $0.bytes.count <= maximumLineLength }, "a payload line longer than the maximum")
        }
    }
}
