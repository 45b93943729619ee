import FoundationEssentials

/// One entry of a script run's output that concerns the run rather than one device's
/// traffic: an expectation's result, a record the script emitted, a script error, the
/// summary. A run's device traffic is rendered as ``ViewRecord``s as usual.
public struct RunRecord: Sendable, Equatable {
    /// When it happened.
    public var time: Date
    /// What happened.
    public var event: RunEvent

    /// Creates a record.
    public init(time: Date, event: RunEvent) {
        self.time = time
        self.event = event
    }
}

/// What a script run reports besides device traffic, in past tense.
public enum RunEvent: Sendable, Equatable {
    /// An expectation was evaluated (a query file's line, a Lua `check`, `expect` or
    /// `await`).
    case checked(CheckResult)
    /// The script emitted a value (Lua `emit(table)`); `location` is the call's.
    case emitted(JSONValue, location: SourceLocation?)
    /// The script could not go on: a syntax or runtime error, an unknown device name.
    case scriptFailed(ScriptProblem)
    /// The script was checked and no port opened (`tether run --dry-run`).
    case checkedOnly(DryRun)
    /// The run is over.
    case finished(RunSummary)
}

/// What `tether run --dry-run` found: the script is sound for these devices.
public struct DryRun: Sendable, Equatable {
    /// The script's name as given (`stdin` for standard input).
    public var script: String
    /// How many commands a query file holds; `nil` for Lua.
    public var commands: Int?
    /// How many devices the run names.
    public var devices: Int

    /// Creates the report.
    public init(script: String, commands: Int?, devices: Int) {
        self.script = script
        self.commands = commands
        self.devices = devices
    }
}

/// A place in a script: the file as the user named it (`stdin` for standard input) and
/// a line number from 1, when known.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    /// The script's name, e.g. `checks.lua`.
    public var file: String
    /// The line, from 1; `nil` when unknown.
    public var line: Int?

    /// Creates a location.
    public init(file: String, line: Int?) {
        self.file = file
        self.line = line
    }

    /// `file:line`, or `file` when the line is unknown.
    public var description: String { line.map { "\(file):\($0)" } ?? file }
}

/// The result of one expectation.
public struct CheckResult: Sendable, Equatable {
    /// How the expectation ended.
    public enum Status: String, Sendable, Equatable {
        /// It held.
        case passed
        /// It did not hold (wrong or error reply, a `check` whose condition was false).
        case failed
        /// What it waited for did not come in time.
        case timedOut = "timeout"
        /// It was never evaluated: the device was gone before its turn.
        case notRun = "not_run"
    }

    /// How it ended.
    public var status: Status
    /// Where the script states it.
    public var location: SourceLocation
    /// The expectation in the script's words, e.g. `*IDN? =~ ^TETHER` or a `check`
    /// message.
    public var description: String
    /// The script's name for the device it concerns, if any (`device` for the default).
    public var device: String?
    /// What it asked for, e.g. `== 25.0`, `=~ ^TETHER`, `a line matching "^READY"`;
    /// `nil` for a Lua `check`, whose description is the expectation.
    public var expected: String?
    /// What was received: the reply's lines, or the line that matched (for a failed
    /// Lua `check`, the last reply the script received).
    public var actual: [String]?
    /// Why it did not hold, e.g. `no reply within 1000 ms`.
    public var detail: String?
    /// Whether it failed because its device disconnected: an error of the run, not an
    /// expectation that did not hold (a JUnit `error`).
    public var isDeviceLost = false

    /// Creates a result.
    public init(
        status: Status, location: SourceLocation, description: String, device: String? = nil,
        actual: [String]? = nil, detail: String? = nil, expected: String? = nil, isDeviceLost: Bool = false
    ) {
        self.isDeviceLost = isDeviceLost
        self.expected = expected
        self.status = status
        self.location = location
        self.description = description
        self.device = device
        self.actual = actual
        self.detail = detail
    }
}

/// A script error: where, when known, and the message (for Lua errors, Lua's own,
/// which starts with `file:line:`).
public struct ScriptProblem: Sendable, Equatable {
    /// Where the error is, when known.
    public var location: SourceLocation?
    /// The message.
    public var message: String

    /// Creates a problem report.
    public init(location: SourceLocation?, message: String) {
        self.location = location
        self.message = message
    }
}

/// The end of a run: counts by expectation status, time taken and the outcome.
public struct RunSummary: Sendable, Equatable {
    /// The run's overall result, from worst to best: device error, script error,
    /// unhandled timeout, failed expectation, passed.
    public enum Outcome: String, Sendable, Equatable {
        /// Every expectation held and nothing went unhandled.
        case passed
        /// An expectation failed, or an error reply went unhandled.
        case failed
        /// A step timed out and the script did not handle it.
        case timedOut = "timeout"
        /// The script had a syntax or runtime error.
        case scriptError = "script_error"
        /// A device disconnected or failed during the run.
        case deviceError = "device_error"
    }

    /// Expectations that held.
    public var passed = 0
    /// Expectations that did not hold.
    public var failed = 0
    /// Expectations whose wait timed out.
    public var timedOut = 0
    /// Expectations never evaluated.
    public var notRun = 0
    /// Timeouts and error replies handed to the script that it never looked at.
    public var unhandled = 0
    /// From the start of the run to its end.
    public var duration: Duration = .zero
    /// The overall result.
    public var outcome: Outcome = .passed

    /// Creates an empty summary.
    public init() {}
}
