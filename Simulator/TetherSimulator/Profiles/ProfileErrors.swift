/// How a profiled device reports errors: inline (an error reply in place of the answer)
/// or, with `queue`, SCPI-style (pushed to an error queue read by a `popError` command).
///
/// JSON (every field optional; the defaults are SCPI-99's codes):
/// `{"reply": "ERR {code},\"{message}\"", "queue": {"size": 10},
///   "unknownCommand": {"code": -113, "message": "Undefined header"},
///   "invalidValue": {"code": -104, "message": "Data type error"},
///   "outOfRange": {"code": -222, "message": "Data out of range"},
///   "lineTooLong": {"code": -363, "message": "Input buffer overrun"}}`
struct ProfileErrors: Sendable, DecodableInProfile {
    /// One error: a code and a message template (which may show `{line}`).
    struct Entry: Sendable, Equatable, DecodableInProfile {
        let code: Int
        let message: ReplyTemplate

        /// Reads `{"code": n, "message": "text"}`; the message may use the scope's
        /// captures (a command row's own error).
        init(from decoder: any Decoder, configuration scope: TemplateScope) throws {
            let object = try decoder.profileObject(keys: ["code", "message"])
            code = try object.required(object.integer("code"), "code", "a whole number")
            message = try object.required(
                object.optional(ReplyTemplate.self, "message", configuration: scope), "message", "the error's text")
        }

        init(code: Int, message: String) {
            self.code = code
            self.message = ReplyTemplate(text: message)
        }
    }

    /// The error queue of SCPI instruments (IEEE 488.2 §11.5, SCPI-99 §21.8).
    struct Queue: Sendable {
        /// Entries kept; when full, the newest is replaced by ``overflow``.
        let size: Int
        /// What `popError` answers when the queue is empty (`0,"No error"`).
        let empty: Entry
        /// The entry that replaces the newest when the queue is full (`-350`).
        let overflow: Entry
    }

    /// The error line: inline, the whole reply; with a queue, the `popError` answer.
    /// Fields `{code}` and `{message}`.
    let reply: ProfileReply
    /// Set for queue-style errors.
    let queue: Queue?
    /// No command row matched the line.
    let unknownCommand: Entry
    /// A value a command sets is not of the property's type.
    let invalidValue: Entry
    /// A value a command sets is outside the property's min…max.
    let outOfRange: Entry
    /// A line longer than 1024 bytes arrived (it is dropped).
    let lineTooLong: Entry

    static let keys = ["reply", "queue", "unknownCommand", "invalidValue", "outOfRange", "lineTooLong"]

    /// The errors of a profile without an `errors` object: every default.
    init() {
        reply = .lines([
            ReplyTemplate(
                pieces: [.field("code", format: nil), .text(",\""), .field("message", format: nil), .text("\"")],
                source: "{code},\"{message}\"")
        ])
        queue = nil
        unknownCommand = Entry(code: -113, message: "Undefined header")
        invalidValue = Entry(code: -104, message: "Data type error")
        outOfRange = Entry(code: -222, message: "Data out of range")
        lineTooLong = Entry(code: -363, message: "Input buffer overrun")
    }

    /// Reads the `errors` object; an absent member keeps its default.
    init(from decoder: any Decoder, configuration scope: TemplateScope) throws {
        let object = try decoder.profileObject(keys: Self.keys)
        let defaults = ProfileErrors()
        reply =
            try object.optional(ProfileReply.self, "reply", configuration: scope.with(isError: true)) ?? defaults.reply
        unknownCommand =
            try object.optional(Entry.self, "unknownCommand", configuration: scope) ?? defaults.unknownCommand
        invalidValue = try object.optional(Entry.self, "invalidValue", configuration: scope) ?? defaults.invalidValue
        outOfRange = try object.optional(Entry.self, "outOfRange", configuration: scope) ?? defaults.outOfRange
        lineTooLong = try object.optional(Entry.self, "lineTooLong", configuration: scope) ?? defaults.lineTooLong
        queue = try object.member("queue") { queue throws in
            let members = try queue.profileObject(keys: ["size", "empty", "overflow"])
            let size = try members.integer("size") ?? 10
            if size < 1 { throw members.error("size", "expected a queue size of 1 or more") }
            return Queue(
                size: size,
                empty: try members.optional(Entry.self, "empty", configuration: scope)
                    ?? Entry(code: 0, message: "No error"),
                overflow: try members.optional(Entry.self, "overflow", configuration: scope)
                    ?? Entry(code: -350, message: "Queue overflow"))
        }
    }
}
