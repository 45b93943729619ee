import Glibc
import TetherCommandLine
import TetherConnection
import TetherLibC
import TetherPresenter
import TetherViews

/// `tether report`: a recorded session (a JSON Lines log) as an HTML page with plots,
/// or as text tables.
enum ReportCommand: Command {
    static let format = ConnectionOptions.format(showing: .report, default: .html)
    static let output = Option<String?>(
        "--output", "-o", value: "file",
        help: """
            Write the report to this file (replaced), '-' for standard output; by
            default the log's name with '.html' for html, standard output for text.
            """, parse: Parse.nonEmpty(InvalidValue("Please provide a path.")))

    static let spec = CommandSpec(
        program: "tether", name: "report",
        abstract: "Show a recorded session: an HTML page with plots, or text tables.",
        discussion: """
            Reads a JSON Lines log (--log FILE.jsonl, or --format json output) and shows
            per device each reading over time, the round trips (over time and as a
            histogram), a timeline of exchanges, error replies, timeouts, late replies,
            disconnects, reconnects and warnings, and a run's checks with their outcome.
            The HTML page is one self-contained file (no network: it works offline).
            Lines that are not records are skipped and counted. Exits 66 when the log
            cannot be read, 65 when it holds no records, 73 when the report cannot
            be written.

            EXAMPLES:
              tether monitor --sim --duration 10 --log bench.jsonl && tether report bench.jsonl
              tether run examples/chamber.txt --sim --log run.jsonl; tether report run.jsonl -o run.html
              tether report bench.jsonl --format text
            """,
        arguments: [ArgumentSpec(name: "log", help: "The JSON Lines log ('-' reads standard input).")],
        options: [format.declaration, output.declaration],
        usage: "tether report <log> [--format html|text] [--output <file>]"
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        guard let path = arguments.positionals.first else { throw UsageError("Missing expected argument '<log>'") }
        if let extra = arguments.positionals.dropFirst().first {
            throw UsageError("Unexpected argument \(Quoted(extra))")
        }
        let format = arguments[Self.format]
        let report = try Self.read(path)
        guard report.records > 0 else {
            throw CommandFailure(
                "\(path) holds no tether records (JSON Lines from --log or --format json)", code: .scriptError)
        }
        let target = arguments[Self.output] ?? (format == .html ? Self.htmlName(for: path) : "-")
        let sink: any OutputSink
        if target == "-" {
            sink = FileSink.standardOutput
        } else {
            do {
                sink = try FileSink.replacing(file: target)
            } catch {
                throw CommandFailure("cannot write the report \(error)", code: .cannotCreateLog)
            }
        }
        let view: any ReportView
        do throws(UnsupportedFormat) {
            view = try format.make(.report, ViewSettings(output: sink))
        } catch {
            throw UsageError(error.description)
        }
        view.render(report: report, source: path == "-" ? "stdin" : path)
        if target != "-" { FileSink.standardError.write("wrote \(target)\n") }
        return .success
    }

    /// The report of the log at `path` (`-`: standard input), read in one pass: each
    /// line a record, or counted as skipped; blank lines ignored.
    ///
    /// - Throws: ``CommandFailure`` (66) naming the file and `strerror` when it cannot
    ///   be read.
    private static func read(_ path: String) throws(CommandFailure) -> SessionReport {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandFailure(
                "cannot read the log \(path): \(String(cString: strerror(errno)))", code: .portNotFound)
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var report = SessionReport()
        let read = FileSystem.forEachLine(descriptor) { line in
            guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) else { return }
            if case .object(let record)? = try? JSONValue.parse(Array(line)) {
                report.add(record)
            } else {
                report.skip()
            }
        }
        guard read else {
            throw CommandFailure(
                "cannot read the log \(path): \(String(cString: strerror(errno)))", code: .portNotFound)
        }
        return report
    }

    /// `bench.jsonl` → `bench.html`; standard input's report is `report.html`.
    static func htmlName(for path: String) -> String {
        guard path != "-" else { return "report.html" }
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path + ".html" }
        return String(path.dropLast(name.distance(from: dot, to: name.endIndex))) + ".html"
    }
}
