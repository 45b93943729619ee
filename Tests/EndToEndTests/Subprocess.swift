import Foundation
import Glibc
import Synchronization

/// Runs a built executable of this package (`tether`, `tether-sim`) as a child
/// process with pipes, for end-to-end tests: its output, exit status and CPU time.
final class Subprocess: @unchecked Sendable {
    /// The folder holding the package's built products (the test bundle's folder).
    static let productsDirectory: URL = {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return executable.deletingLastPathComponent()
    }()

    /// What a finished process left.
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// User + system CPU time of the child, in seconds (from `wait4`).
        var cpuSeconds: Double
    }

    let pid: pid_t
    /// Serialises pipe creation and spawning.
    private static let spawnLock = Mutex(())
    private let stdoutPipe: CloseOnExecPipe
    private let stderrPipe: CloseOnExecPipe
    private let stdinPipe: CloseOnExecPipe
    private let collected = OutputCollector()
    /// What ``wait(timeout:)`` found, for a second wait (the child is reaped once).
    private let finished = Mutex<Result?>(nil)

    /// Starts `product` (e.g. `tether`) with `arguments`.
    convenience init(_ product: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        try self.init(
            path: Self.productsDirectory.appendingPathComponent(product).path, arguments, environment: environment)
    }

    /// Broken pipes are errors in the test process, not a signal that ends it: a child
    /// that exits before reading its standard input (a bad option, exit 64) leaves the
    /// pipe without a reader, and writing to it raised SIGPIPE, which killed every test
    /// running at the time. Children still start with SIGPIPE at its default action
    /// (``spawn(path:_:environment:)``).
    private static let brokenPipesAreErrors: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Starts the executable at `path` with `arguments`.
    init(path: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        Self.brokenPipesAreErrors
        (pid, stdinPipe, stdoutPipe, stderrPipe) = try Self.spawnLock.withLock { _ in
            try Self.spawn(path: path, arguments, environment: environment)
        }
        try? stdoutPipe.fileHandleForWriting.close()
        try? stderrPipe.fileHandleForWriting.close()
        try? stdinPipe.fileHandleForReading.close()
        collected.start(stdout: stdoutPipe.fileHandleForReading, stderr: stderrPipe.fileHandleForReading)
    }

    /// Makes the pipes and spawns the child (under ``spawnLock``).
    private static func spawn(path: String, _ arguments: [String], environment: [String: String]) throws -> (
        pid: pid_t, stdin: CloseOnExecPipe, stdout: CloseOnExecPipe, stderr: CloseOnExecPipe
    ) {
        let stdoutPipe = try CloseOnExecPipe()
        let stderrPipe = try CloseOnExecPipe()
        let stdinPipe = try CloseOnExecPipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe.fileHandleForReading.fileDescriptor, 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe.fileHandleForWriting.fileDescriptor, 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe.fileHandleForWriting.fileDescriptor, 2)
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0)=\($1)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // The child starts with no signals blocked, as from a shell: the test runner's
        // threads block most signals and posix_spawn would pass that mask on (a tmux
        // server started so never sees SIGCHLD or SIGTERM and never exits).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        // …and with the usual signals at their default action: a test run started in
        // the background of a non-interactive shell has SIGINT and SIGQUIT ignored, and
        // tether keeps a signal that was ignored when it started ignored (as POSIX
        // programs do), so Ctrl-C tests would see nothing.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        return (child, stdinPipe, stdoutPipe, stderrPipe)
    }

    /// Runs to completion (killing the child after `timeout` seconds), with
    /// `environment` over this process's.
    static func run(
        _ product: String, _ arguments: [String], stdin: String? = nil, timeout: Double = 60,
        environment: [String: String] = [:]
    ) throws -> Result {
        try run(
            path: productsDirectory.appendingPathComponent(product).path, arguments, stdin: stdin, timeout: timeout,
            environment: environment)
    }

    /// Runs the executable at `path` to completion (killing it after `timeout` seconds).
    static func run(
        path: String, _ arguments: [String], stdin: String? = nil, timeout: Double = 60,
        environment: [String: String] = [:]
    ) throws -> Result {
        let process = try Subprocess(path: path, arguments, environment: environment)
        if let stdin { process.write(stdin) }
        process.closeInput()
        return process.wait(timeout: timeout)
    }

    /// Runs the executable at `path` to completion on a thread of its own: a long run
    /// then holds none of Swift's cooperative threads, which other tests running at the
    /// same time need.
    static func runDetached(path: String, _ arguments: [String], stdin: String? = nil, timeout: Double = 60)
        async throws -> Result
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Swift.Result { try run(path: path, arguments, stdin: stdin, timeout: timeout) })
            }.start()
        }
    }

    /// ``runDetached(path:_:stdin:timeout:)`` for a product of this package (`tether`).
    static func runDetached(_ product: String, _ arguments: [String], stdin: String? = nil, timeout: Double = 60)
        async throws -> Result
    {
        try await runDetached(
            path: productsDirectory.appendingPathComponent(product).path, arguments, stdin: stdin, timeout: timeout)
    }

    /// Writes to the child's standard input.
    func write(_ text: String) { write(bytes: Array(text.utf8)) }

    /// Writes exact bytes to the child's standard input (any byte, valid UTF-8 or not).
    func write(bytes: [UInt8]) {
        try? stdinPipe.fileHandleForWriting.write(contentsOf: Data(bytes))
    }

    /// Closes the child's standard input (end of input).
    func closeInput() { try? stdinPipe.fileHandleForWriting.close() }

    /// Sends `signal` to the child, unless it was reaped (its pid may be another's now).
    func send(_ signal: Int32) {
        if finished.withLock({ $0 == nil }) { kill(pid, signal) }
    }

    /// Whether the child has not exited yet (it is not reaped, so ``wait(timeout:)``
    /// still gives its status).
    var isRunning: Bool {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return false }
        return info._sifields._sigchld.si_pid == 0
    }

    /// Standard output so far.
    var stdoutSoFar: String { collected.stdout }

    /// Standard error so far.
    var stderrSoFar: String { collected.stderr }

    /// Waits until standard output contains `text` (at most `timeout` seconds).
    @discardableResult
    func waitForOutput(containing text: String, timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if collected.stdout.contains(text) { return true }
            usleep(20_000)
        }
        return false
    }

    /// Waits for the child to exit (SIGKILL after `timeout` seconds); a second wait
    /// gives the same result.
    func wait(timeout: Double = 60) -> Result {
        if let result = finished.withLock({ $0 }) { return result }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid { break }
            if Date() > deadline { kill(pid, SIGKILL) }
            usleep(10_000)
        }
        collected.waitForEnd()
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let result = Result(status: code, stdout: collected.stdout, stderr: collected.stderr, cpuSeconds: cpu)
        finished.withLock { $0 = result }
        return result
    }
}

/// Reads a child's stdout and stderr on background threads.
private final class OutputCollector: Sendable {
    private let output = Mutex((out: Data(), err: Data()))
    private let done = DispatchGroup()

    func start(stdout: FileHandle, stderr: FileHandle) {
        for (handle, isOut) in [(stdout, true), (stderr, false)] {
            done.enter()
            Thread {
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    self.output.withLock { if isOut { $0.out.append(chunk) } else { $0.err.append(chunk) } }
                }
                self.done.leave()
            }.start()
        }
    }

    func waitForEnd() { _ = done.wait(timeout: .now() + 10) }

    var stdout: String { output.withLock { String(decoding: $0.out, as: UTF8.self) } }
    var stderr: String { output.withLock { String(decoding: $0.err, as: UTF8.self) } }
}

/// A pipe whose ends are closed in children (`FD_CLOEXEC`), so concurrently spawned
/// children never hold each other's pipes open; `dup2` onto 0/1/2 clears the flag
/// for the one end a child should have. Pipes are made and children spawned under
/// ``Subprocess/spawnLock``, so no child is spawned between `pipe` and `fcntl`.
private struct CloseOnExecPipe {
    let fileHandleForReading: FileHandle
    let fileHandleForWriting: FileHandle

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        fileHandleForReading = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
        fileHandleForWriting = FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
    }
}
