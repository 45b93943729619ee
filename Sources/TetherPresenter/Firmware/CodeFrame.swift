/// One frame of the code at an address: the function, and the source file and line
/// (`nil` without debug information). An inlined function's frame is followed by the
/// frame of the function it was inlined into, at the line of the call.
public struct CodeFrame: Sendable, Hashable {
    /// The function's name.
    public var function: String
    /// The source file, as the debug information names it.
    public var file: String?
    /// The 1-based line in ``file``.
    public var line: Int?
    /// Whether this function's code was inlined into the next frame's.
    public var isInlined: Bool

    /// Creates a frame.
    public init(function: String, file: String? = nil, line: Int? = nil, isInlined: Bool = false) {
        self.function = function
        self.file = file
        self.line = line
        self.isInlined = isInlined
    }

    /// `function at file:line`, or the function alone without a file.
    public var description: String {
        guard let file else { return function }
        return "\(function) at \(file):\(line.map(String.init) ?? "?")"
    }
}
