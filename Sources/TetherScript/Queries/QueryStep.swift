/// One command line of a query file.
public struct QueryStep: Sendable {
    /// The line number, from 1.
    public var line: Int
    /// The command as written in the file (quotes and escapes kept: `""`, `A\tB`);
    /// empty for a wait line.
    public var command: String
    /// The command's exact bytes, its escapes decoded (`CommandText/bytes(fromEscaped:)`):
    /// what is sent, the dialect's terminator after them.
    public var bytes: [UInt8]
    /// What the reply must hold; `nil`: any reply that is not an error reply. For a
    /// wait line, what the received text must match.
    public var expectation: QueryExpectation?
    /// Whether the line sends nothing and waits for received text — a line, or text
    /// without a line end yet such as a prompt — that its expectation matches
    /// (`=~ login: $` alone on a line).
    public var isWait: Bool
    /// For a directive line (`@reset esptool-classic`), what it does to the port
    /// instead of sending a command.
    var control: QueryControl?

    /// Creates a step.
    public init(line: Int, command: String, bytes: [UInt8], expectation: QueryExpectation?, isWait: Bool = false) {
        self.line = line
        self.command = command
        self.bytes = bytes
        self.expectation = expectation
        self.isWait = isWait
    }

    /// The step in the file's words, e.g. `*IDN? =~ ^TETHER`, or `=~ login: $`.
    public var description: String {
        guard let expectation else { return command }
        return isWait ? expectation.description : "\(command) \(expectation)"
    }
}
