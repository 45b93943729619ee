import Glibc

/// The advisory lock that gives one process exclusive use of a port.
///
/// libserialport 0.1.1 takes no lock (0.1.2 added `TIOCEXCL` and `flock`), and
/// `TIOCEXCL` does not stop root. tether takes `flock(LOCK_EX | LOCK_NB)`, as tio,
/// picocom and pyserial do, so it also respects their locks (`SerialPortLockTests`
/// pass as root). The kernel drops the lock when the descriptor closes, even on SIGKILL: no stale lock files.
enum PortLock {
    /// Locks the open descriptor `descriptor` of `node`, or names who holds it.
    ///
    /// - Throws: ``SerialError/busy(path:holder:)`` if another open file description
    ///   holds the lock, with the holder as `"comm (pid N)"` when `/proc/locks` shows
    ///   it; ``SerialError/io(path:function:errno:message:)`` if `flock` fails otherwise.
    static func acquire(_ descriptor: Int32, for node: DeviceNode) throws(SerialError) {
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EWOULDBLOCK {
                throw .busy(path: node.name, holder: holder(of: node))
            }
            throw .io(path: node.name, function: "flock", errno: code, message: String(cString: strerror(code)))
        }
    }

    /// The process holding a `flock` on `node`, as `"comm (pid N)"` or `"pid N"`, or
    /// nil when `/proc/locks` is unreadable or shows no holder.
    static func holder(of node: DeviceNode) -> String? {
        guard let locks = readProcFile("/proc/locks"),
            let pid = holderPID(
                inLocks: locks, major: DeviceNode.major(node.fileSystemDevice),
                minor: DeviceNode.minor(node.fileSystemDevice), inode: node.inode)
        else { return nil }
        guard let command = readProcFile("/proc/\(pid)/comm") else { return "pid \(pid)" }
        let name = command.trimmingSuffix(while: { $0 == "\n" })
        return name.isEmpty ? "pid \(pid)" : "\(name) (pid \(pid))"
    }

    /// The pid that holds a `FLOCK` on the given file in `/proc/locks` text.
    ///
    /// Lines look like `1: FLOCK  ADVISORY  WRITE 1234 00:1a:5 0 EOF` (proc(5)): the
    /// device is `major:minor` in hexadecimal, then the inode in decimal. Waiting
    /// requests (`1: -> FLOCK …`) are skipped.
    ///
    /// - Returns: the holder's pid, or nil if no granted `FLOCK` matches.
    static func holderPID(inLocks text: String, major: UInt32, minor: UInt32, inode: UInt64) -> Int32? {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK" else { continue }
            let file = fields[5].split(separator: ":")
            guard file.count == 3, UInt32(file[0], radix: 16) == major,
                UInt32(file[1], radix: 16) == minor, UInt64(file[2]) == inode
            else { continue }
            return Int32(fields[4])
        }
        return nil
    }

    /// Reads a small `/proc` file whole; nil if it cannot be read.
    private static func readProcFile(_ path: String) -> String? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { Glibc.close(descriptor) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            contents += chunk[..<count]
        }
        return String(decoding: contents, as: UTF8.self)
    }
}

extension StringProtocol {
    /// The string without trailing characters matching `predicate`.
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> String {
        var result = String(self)
        while let last = result.last, predicate(last) { result.removeLast() }
        return result
    }
}
