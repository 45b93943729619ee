/// One command line of a query file.
public struct QueryStep: Sendable {
    /// The line number, from 1.
    public var line: Int
    /// The command to send, without terminator.
    public var command: String
    /// What the reply must hold; `nil`: any reply that is not an error reply.
    public var expectation: QueryExpectation?

    /// The step in the file's words, e.g. `*IDN? =~ ^TETHER`.
    public var description: String {
        expectation.map { "\(command) \($0)" } ?? command
    }
}
