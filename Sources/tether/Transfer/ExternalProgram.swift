import Glibc
import TetherConnection
import TetherLibC
import TetherSerial

/// `send --program` and `receive --program`: the open port handed to another program —
/// lrzsz's `sz`/`rz` for ZMODEM, a Kermit — as picocom's `--send-cmd`/`--receive-cmd`
/// do (docs/TRANSFERS.md, "Handing the port to a program").
///
/// The program is a shell command line, run by `/bin/sh -c` with its standard input
/// and output on the port's descriptor (in blocking mode, as such programs expect) and
/// its standard error on tether's; the signals tether traps have their default action
/// in it. tether waits for it and gives its end as an exit code (``exitCode(for:)``).
enum ExternalProgram {
    /// How the program ended.
    enum End: Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// This signal ended it.
        case killed(signal: Int32)
        /// It could not be started (`posix_spawn` failed with this `errno`).
        case notStarted(errno: Int32)
    }

    /// Runs `command` with `arguments` after it (each one word, quoted for the shell:
    /// `"$@"`) on `connection`'s port, in `folder` (`nil`: the current one), and waits
    /// for it on a thread of its own; a signal tether traps meanwhile is passed on to
    /// it. The connection is closed after (``Connection/drive(onSignal:_:)``).
    ///
    /// - Returns: how it ended, and the first signal trapped meanwhile, if any.
    /// - Throws: ``CommandFailure`` (74) when the `--log` file could not be written.
    static func run(_ command: String, arguments: [String], on connection: Connection, in folder: String?)
        async throws(CommandFailure) -> (End, signal: Int32?)
    {
        let descriptor = connection.transport.descriptor
        makeBlocking(descriptor)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, descriptor, STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, descriptor, STDOUT_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in SignalTrap.trappable + [SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        // The shell changes folder (glibc's posix_spawn_file_actions_addchdir_np is not
        // in Swift's Glibc module); the folder is its first argument, never parsed.
        let script = (folder == nil ? "" : "cd -- \"$1\" && shift && ") + command + " \"$@\""
        let words = ["/bin/sh", "-c", script, "sh"] + (folder.map { [$0] } ?? []) + arguments
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }
        var spawnedPID = pid_t()
        let spawned = posix_spawn(&spawnedPID, "/bin/sh", &actions, &attributes, &argv, environ)
        guard spawned == 0 else {
            await connection.shutdown()
            return (.notStarted(errno: spawned), nil)
        }
        let pid = spawnedPID
        let forward: @Sendable (Int32) -> Void = { kill(pid, $0 == SignalTrap.abortStandIn ? SIGABRT : $0) }
        return try await connection.drive(onSignal: forward) {
            await withCheckedContinuation { (done: CheckedContinuation<End, Never>) in
                let started = DedicatedThread.start {
                    var status: Int32 = 0
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                    let signal = status & 0x7F
                    done.resume(returning: signal == 0 ? .exited((status >> 8) & 0xFF) : .killed(signal: signal))
                }
                if !started { done.resume(returning: .notStarted(errno: EAGAIN)) }
            }
        }
    }

    /// Clears `O_NONBLOCK` on `descriptor` (the port is opened non-blocking for the
    /// port loop; a program reads and writes it blocking).
    static func makeBlocking(_ descriptor: Int32) {
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
    }

    /// The exit code and message for how `command` ended (README, "Exit codes"): 0 for
    /// status 0; 69 when the shell could not find or run it (its status 127 or 126) or
    /// it could not be started; 76 for any other status or a signal.
    static func exitCode(for end: End, of command: String) -> (ExitCode, message: String?) {
        switch end {
        case .exited(0): (.success, nil)
        case .exited(let status) where status == 126 || status == 127:
            (
                .portUnavailable,
                "cannot run \(Quoted(command)) (the shell's status \(status): not found, or not executable)"
            )
        case .exited(let status): (.transferFailed, "\(Quoted(command)) failed (exit status \(status))")
        case .killed(let signal): (.transferFailed, "\(Quoted(command)) was ended by signal \(signal)")
        case .notStarted(let code):
            (.portUnavailable, "cannot start \(Quoted(command)): \(String(cString: strerror(code)))")
        }
    }
}
