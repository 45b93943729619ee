import TetherPresenter

/// A transfer for people: on a terminal a progress bar redrawn in place on standard
/// error (file, bar, percent, bytes, rate, ETA, retries); elsewhere one line per file
/// begun. The last line says how it ended: on `summary` when it went through, as
/// `Error: …` on `progress` (standard error) when it failed.
package struct TransferProgressBar: TransferView {
    /// The bar's width in characters.
    static let width = 24

    private let progress: any OutputSink
    private let summary: any OutputSink
    private let isTerminal: Bool
    private let isQuiet: Bool

    /// Creates the view.
    ///
    /// - Parameters:
    ///   - progress: where the bar and errors go (standard error).
    ///   - summary: where the line of a transfer that went through goes (standard output).
    ///   - isTerminal: whether `progress` is a terminal (the bar is redrawn in place).
    ///   - isQuiet: no bar and no line per file (`--quiet`); the last line and errors stay.
    package init(
        progress: any OutputSink = FileSink.standardError, summary: any OutputSink = FileSink.standardOutput,
        isTerminal: Bool, isQuiet: Bool = false
    ) {
        self.progress = progress
        self.summary = summary
        self.isTerminal = isTerminal
        self.isQuiet = isQuiet
    }

    package func render(transfer status: TransferStatus) {
        switch status.stage {
        case .start where isQuiet, .progress where isQuiet:
            break
        case .start:
            let line = Self.statusLine(status)
            progress.write(isTerminal ? "\r\u{1B}[K" + line : line + "\n")
        case .progress:
            if isTerminal { progress.write("\r\u{1B}[K" + Self.statusLine(status)) }
        case .done:
            if isTerminal { progress.write("\r\u{1B}[K") }
            summary.write(Self.endLine(status) + "\n")
        case .failed:
            if isTerminal { progress.write("\r\u{1B}[K") }
            progress.write("Error: " + Self.endLine(status) + "\n")
        }
    }

    /// The line a terminal shows in place while the transfer runs: at a file's start
    /// `Sending image.bin by ymodem (64.0 KiB)`, then the bar (``bar(_:)``).
    package static func statusLine(_ status: TransferStatus) -> String {
        guard status.stage == .start else { return bar(status) }
        let verb = status.direction == "send" ? "Sending" : "Receiving"
        let size = status.total.map { " (\(bytes($0)))" } ?? ""
        return "\(verb) \(status.file ?? "a file") by \(status.protocolName)\(size)"
    }

    /// The last line: `Sent 1 file by ymodem in 1.2 s (53.1 KiB/s, 0 retries)`, or
    /// `transfer failed after 27.5 KiB: cancelled`.
    package static func endLine(_ status: TransferStatus) -> String {
        if case .failed(let reason) = status.stage {
            return "transfer failed after \(bytes(status.bytes)): \(reason)"
        }
        let verb = status.direction == "send" ? "Sent" : "Received"
        let files = status.files == 1 ? "1 file" : "\(status.files) files"
        return "\(verb) \(files) by \(status.protocolName) in \(seconds(status.elapsed))"
            + " (\(bytes(Int(status.rate)))/s, \(status.retries) retries)"
    }

    /// `image.bin [#########.........]  42% 27.5/64.0 KiB 53.1 KiB/s ETA 1 s retries 0`.
    static func bar(_ status: TransferStatus) -> String {
        var line = (status.file ?? "file") + " "
        if let total = status.total, total > 0 {
            let done = min(width, status.bytes * width / total)
            line += "[" + String(repeating: "#", count: done) + String(repeating: ".", count: width - done) + "] "
            line += "\(status.bytes * 100 / total)% \(bytes(status.bytes))/\(bytes(total))"
        } else {
            line += bytes(status.bytes)
        }
        line += " \(bytes(Int(status.rate)))/s"
        if let remaining = status.remaining { line += " ETA \(seconds(remaining))" }
        return line + " retries \(status.retries)"
    }

    /// `812 B`, `27.5 KiB`, `1.2 MiB`.
    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        let kib = Double(count) / 1024
        if kib < 1024 { return tenths(kib) + " KiB" }
        return tenths(kib / 1024) + " MiB"
    }

    /// `0.4 s`, `12.0 s`.
    static func seconds(_ duration: Duration) -> String {
        tenths(Double(duration.milliseconds) / 1000) + " s"
    }

    private static func tenths(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
