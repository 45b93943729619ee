import Glibc
import Synchronization

/// A UUCP lock file, `LCK..<name>` in `/run/lock`
/// (``SerialPort/OpenOptions/defaultLockDirectory``), the lock minicom, picocom (built with it) and ser2net take, beside
/// the `flock` of ``PortLock``, which they do not all see.
///
/// HDB format: the holder's pid as 10 ASCII characters, right-aligned, and a newline
/// (`"      1234\n"`). `<name>` is the device node's file name, all links resolved
/// (`/dev/serial/by-id/usb-…` → `ttyUSB0`, `/dev/pts/5` → `5`); a lock under the file
/// name of the path as typed, when it differs, is honoured too (a program given the
/// link). A lock whose process is alive and has the port open makes the port busy; one
/// whose process is gone, or does not have the port open (its pid was given again), or
/// that holds no pid, is stale and is removed. The file is removed when the port
/// closes, and at `exit` for ports still open; after a SIGKILL it is stale.
final class UUCPLockFile: Sendable {
    /// The lock file's path, e.g. `/run/lock/LCK..ttyUSB0`.
    let path: String

    private init(path: String) {
        self.path = path
        Self.registerExitHandler
        _ = Self.held.withLock { $0.insert(path) }
    }

    /// Takes the lock file for `node` in `directory`, or names who holds it.
    ///
    /// - Returns: the lock, or `nil` when the file cannot be created (no permission,
    ///   no such directory, a read-only file system): the port is then used without
    ///   one, and ``SerialPort/setLockFileWarningHandler(_:)``'s handler hears of it once
    ///   per process.
    /// - Throws: ``SerialError/busy(path:holder:)`` when a live process holds a lock
    ///   file for the port, naming it (`"minicom (pid 1234)"`) and the file.
    static func acquire(for node: DeviceNode, in directory: String) throws(SerialError) -> UUCPLockFile? {
        let path = "\(directory)/LCK..\(fileName(node.path))"
        let typed = "\(directory)/LCK..\(fileName(node.name))"
        if typed != path, let holder = liveHolder(of: typed, device: node.deviceNumber) {
            throw busy(node, holder, typed)
        }
        // Two rounds: a stale file found in the first is removed, then created again.
        for _ in 0..<2 {
            let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            if descriptor >= 0 {
                defer { Glibc.close(descriptor) }
                let pid = String(getpid())
                let text = Array((String(repeating: " ", count: max(0, 10 - pid.count)) + pid + "\n").utf8)
                guard Glibc.write(descriptor, text, text.count) == text.count else {
                    let code = errno
                    unlink(path)
                    warn(path, code)
                    return nil
                }
                return UUCPLockFile(path: path)
            }
            let code = errno
            guard code == EEXIST else {
                warn(path, code)
                return nil
            }
            if let holder = liveHolder(of: path, device: node.deviceNumber) { throw busy(node, holder, path) }
            unlink(path)
        }
        warn(path, EEXIST)
        return nil
    }

    /// Removes the lock file if it still holds this process's pid; idempotent.
    func release() {
        _ = Self.held.withLock { $0.remove(path) }
        Self.remove(path)
    }

    /// The process a lock file names, as `"comm (pid N)"` or `"pid N"`, when it is alive,
    /// not this process, and has `device` open (or its descriptors cannot be read:
    /// another user's); `nil` for a stale, unreadable or missing file. A live process
    /// without the port open has the pid of one that died holding the file.
    static func liveHolder(of path: String, device: UInt64) -> String? {
        guard let pid = pid(in: path), pid > 0, pid != getpid(), kill(pid, 0) == 0 || errno == EPERM,
            mayHold(device, pid)
        else { return nil }
        guard let command = readSmallFile("/proc/\(pid)/comm")?.split(separator: "\n").first, !command.isEmpty
        else { return "pid \(pid)" }
        return "\(command) (pid \(pid))"
    }

    /// The pid in a lock file: HDB's ASCII (leading blanks and a newline around it).
    static func pid(in path: String) -> pid_t? {
        guard let text = readSmallFile(path, noFollow: true) else { return nil }
        return pid_t(text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\0" }).first ?? "")
    }

    /// The error for a port whose lock file `path` a live `holder` has.
    private static func busy(_ node: DeviceNode, _ holder: String, _ path: String) -> SerialError {
        .busy(path: node.name, holder: "\(holder), lock file \(path)")
    }

    /// Whether process `pid` has `device` open, or its descriptors (`/proc/PID/fd`)
    /// cannot be listed.
    private static func mayHold(_ device: UInt64, _ pid: pid_t) -> Bool {
        guard let folder = opendir("/proc/\(pid)/fd") else { return true }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            var status = stat()
            if stat("/proc/\(pid)/fd/\(name)", &status) == 0, status.st_mode & S_IFMT == S_IFCHR,
                UInt64(status.st_rdev) == device
            {
                return true
            }
        }
        return false
    }

    /// The last component of `path`: the name of its lock file after `LCK..`.
    private static func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }

    /// Reports, once per process, that lock files cannot be made in the folder of `path`.
    private static func warn(_ path: String, _ code: Int32) {
        SerialPort.reportLockFileWarning(
            "cannot create the lock file \(path) (\(String(cString: strerror(code)))); the port is used without "
                + "one, so minicom, picocom and ser2net may not see that tether has it (docs/HARDWARE.md)")
    }

    private static func remove(_ path: String) {
        if pid(in: path) == getpid() { unlink(path) }
    }

    /// Reads a small file whole (a lock file, `/proc/PID/comm`); `nil` if it cannot.
    private static func readSmallFile(_ path: String, noFollow: Bool = false) -> String? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | (noFollow ? O_NOFOLLOW : 0))
        guard descriptor >= 0 else { return nil }
        defer { Glibc.close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        var count = 0
        repeat { count = Glibc.read(descriptor, &buffer, buffer.count) } while count < 0 && errno == EINTR
        return count >= 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    /// The lock files this process holds, removed by the exit handler.
    private static let held = Mutex<Set<String>>([])

    /// Installs, once, the `atexit` handler that removes the lock files still held.
    private static let registerExitHandler: Void = {
        atexit {
            for path in UUCPLockFile.held.withLock({ $0 }) { UUCPLockFile.remove(path) }
        }
    }()
}
