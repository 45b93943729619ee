import Synchronization
import TetherConsole
import TetherViews

/// A terminal that records what the console shows, and types what a test scripts.
final class RecordingScreen: ConsoleScreen {
    enum Shown: Equatable {
        /// `write(_:)`: whole lines.
        case lines(String)
        /// `writeBytes(_:)`: received bytes in raw mode.
        case bytes([UInt8])
        /// `holdTail(_:switchesToRaw:)`.
        case tail(String?)
        /// `holdTail(_:switchesToRaw: true)`.
        case prompt(String)
        /// `showTransfer(_:)`: a transfer's status line.
        case transfer(String)
        /// `endTransfer()`.
        case transferEnded
    }

    private struct State {
        var mode: ConsoleMode
        var echoesLocally = false
        var shown: [Shown] = []
        var isStarted = false
        var undo: [UInt8] = []
        var cancelTransfer: (@Sendable () -> Void)?
    }

    let inputs: AsyncStream<ConsoleInput>
    let isTerminal = true
    private let typing: AsyncStream<ConsoleInput>.Continuation
    private let state: Mutex<State>

    init(mode: ConsoleMode = .line) {
        (inputs, typing) = AsyncStream.makeStream(of: ConsoleInput.self)
        state = Mutex(State(mode: mode))
    }

    /// Types `inputs`, in order; `finish` ends the input after them.
    func type(_ inputs: ConsoleInput..., finish: Bool = false) {
        for input in inputs { typing.yield(input) }
        if finish { typing.finish() }
    }

    var mode: ConsoleMode {
        get { state.withLock { $0.mode } }
        set { state.withLock { $0.mode = newValue } }
    }

    var echoesLocally: Bool {
        get { state.withLock { $0.echoesLocally } }
        set { state.withLock { $0.echoesLocally = newValue } }
    }

    var isStarted: Bool { state.withLock { $0.isStarted } }

    /// The bytes ``undoOnExit(_:)`` was given last.
    var undo: [UInt8] { state.withLock { $0.undo } }

    /// Everything shown, in order.
    var shown: [Shown] { state.withLock { $0.shown } }

    /// The text of the lines written, joined.
    var text: String {
        shown.map { (item) -> String in if case .lines(let text) = item { text } else { "" } }.joined()
    }

    /// The received bytes written in raw mode, joined.
    var bytes: [UInt8] {
        shown.flatMap { (item) -> [UInt8] in if case .bytes(let bytes) = item { bytes } else { [] } }
    }

    func start() { state.withLock { $0.isStarted = true } }
    func write(_ text: String) { state.withLock { $0.shown.append(.lines(text)) } }
    func writeBytes(_ bytes: [UInt8]) { state.withLock { $0.shown.append(.bytes(bytes)) } }
    func holdTail(_ text: String?, switchesToRaw: Bool) {
        state.withLock { $0.shown.append(switchesToRaw ? .prompt(text ?? "") : .tail(text)) }
    }
    func undoOnExit(_ bytes: [UInt8]) { state.withLock { $0.undo = bytes } }
    func onTransferCancel(_ cancel: @escaping @Sendable () -> Void) { state.withLock { $0.cancelTransfer = cancel } }
    func showTransfer(_ line: String) { state.withLock { $0.shown.append(.transfer(line)) } }
    func endTransfer() { state.withLock { $0.shown.append(.transferEnded) } }

    /// Whether the console gave the running transfer's cancel (``onTransferCancel(_:)``).
    var canCancelTransfer: Bool { state.withLock { $0.cancelTransfer != nil } }

    /// Types the key that cancels a transfer (Ctrl-C).
    func cancelTransfer() { state.withLock { $0.cancelTransfer }?() }
}
