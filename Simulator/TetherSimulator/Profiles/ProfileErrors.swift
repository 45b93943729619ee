/// How a profiled device reports errors: inline (an error reply in place of the answer)
/// or, with `queue`, SCPI-style (pushed to an error queue read by a `popError` command).
///
/// JSON (every field optional; the defaults are SCPI-99's codes):
/// `{"reply": "ERR {code},\"{message}\"", "queue": {"size": 10},
///   "unknownCommand": {"code": -113, "message": "Undefined header"},
///   "invalidValue": {"code": -104, "message": "Data type error"},
///   "outOfRange": {"code": -222, "message": "Data out of range"},
///   "lineTooLong": {"code": -363, "message": "Input buffer overrun"}}`
struct ProfileErrors: Sendable {
    /// One error: a code and a message template (which may show `{line}`).
    struct Entry: Sendable, Equatable {
        let code: Int
        let message: ReplyTemplate

        /// Reads `{"code": n, "message": "text"}`; the message may use `captures`
        /// (a command row's own error).
        init(_ reader: ProfileReader, scope: TemplateScope, captures: Int = 0) throws(ProfileError) {
            let object = try reader.object(keys: ["code", "message"])
            code = try object.required("code", "a whole number").integer()
            message = try scope.template(object.required("message", "the error's text"), captures: captures)
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

    /// Reads the `errors` object (`nil`: all defaults).
    init(_ reader: ProfileReader?, scope: TemplateScope, file: String) throws(ProfileError) {
        let object = try (reader ?? ProfileReader(value: .object([:]), path: "errors", file: file)).object(
            keys: Self.keys)
        reply = try scope.reply(
            object["reply"] ?? ProfileReader(value: .string("{code},\"{message}\""), path: "errors.reply", file: file),
            isError: true)
        unknownCommand = try Self.entry(object, "unknownCommand", -113, "Undefined header", scope)
        invalidValue = try Self.entry(object, "invalidValue", -104, "Data type error", scope)
        outOfRange = try Self.entry(object, "outOfRange", -222, "Data out of range", scope)
        lineTooLong = try Self.entry(object, "lineTooLong", -363, "Input buffer overrun", scope)
        if let queueReader = object["queue"] {
            let queueObject = try queueReader.object(keys: ["size", "empty", "overflow"])
            let size = try queueObject["size"]?.integer() ?? 10
            if size < 1 { throw queueObject["size"]!.error("expected a queue size of 1 or more") }
            queue = Queue(
                size: size, empty: try Self.entry(queueObject, "empty", 0, "No error", scope),
                overflow: try Self.entry(queueObject, "overflow", -350, "Queue overflow", scope))
        } else {
            queue = nil
        }
    }

    /// The entry `key` of `object`, or `{code, message}` when it is absent.
    private static func entry(
        _ object: ProfileObject, _ key: String, _ code: Int, _ message: String, _ scope: TemplateScope
    ) throws(ProfileError) -> Entry {
        let fallback = ProfileReader(
            value: .object(["code": .number(Double(code)), "message": .string(message)]),
            path: object.reader.child(key), file: object.reader.file)
        return try Entry(object[key] ?? fallback, scope: scope)
    }
}
