import Glibc

/// The terminal device node behind a port name the user typed, resolved and checked.
///
/// Symbolic links (udev's `/dev/serial/by-id/…`, relative links, chains) are resolved
/// with `realpath(3)`, because libserialport 0.1.1 finds a port's sysfs entry by its
/// name and rejects links
/// (`SerialPortOpenTests.opensThroughAbsoluteRelativeAndChainedLinks`). The name as typed is kept for display.
struct DeviceNode: Sendable {
    /// The port name as the user gave it.
    let name: String
    /// The absolute path of the node, all links resolved, e.g. `/dev/ttyUSB0`.
    let path: String
    /// The node's device number (`st_rdev`).
    let deviceNumber: UInt64
    /// The file system's device number and the inode (`st_dev`, `st_ino`), which
    /// `/proc/locks` uses to name the file a lock is on.
    let fileSystemDevice: UInt64
    let inode: UInt64

    /// Whether this is a Unix98 pseudo-terminal slave, `/dev/pts/N` (character
    /// major numbers 136–143), which libserialport 0.1.1 cannot look up or open
    /// without tether's pty compatibility layer.
    var isPseudoTerminalSlave: Bool { (136...143).contains(Self.major(deviceNumber)) }

    /// Resolves `name`, opens the node and checks that it is a terminal.
    ///
    /// The node is opened read-write with `O_NOCTTY | O_NONBLOCK | O_CLOEXEC`
    /// (non-blocking, so a modem port without carrier does not hang the open). The
    /// descriptor changes no setting; tether uses it for the port's lock.
    ///
    /// - Parameter name: the port name as typed.
    /// - Returns: the node and the open descriptor, which the caller must close.
    /// - Throws: ``SerialError/notFound(path:)`` for a missing node or dangling link,
    ///   ``SerialError/permissionDenied(path:owner:)``, ``SerialError/notASerialPort(path:)``
    ///   for anything but a terminal (regular file, `/dev/null`), or the classified
    ///   `errno` of `realpath`/`open`.
    static func open(_ name: String) throws(SerialError) -> (node: DeviceNode, descriptor: Int32) {
        guard let resolved = realpath(name, nil) else {
            // No node has a name longer than a path can be; the message shows it cut
            // short, with its length (`Quoted`).
            if errno == ENAMETOOLONG { throw .notFound(path: name) }
            throw SerialError.fromErrno(errno, path: name, function: "realpath")
        }
        let path = String(cString: resolved)
        free(resolved)

        var status = stat()
        guard stat(path, &status) == 0 else {
            throw SerialError.fromErrno(errno, path: name, function: "stat")
        }
        guard status.st_mode & S_IFMT == S_IFCHR else { throw .notASerialPort(path: name) }

        let descriptor = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == EACCES, (136...143).contains(major(UInt64(status.st_rdev))) {
                throw .permissionDenied(path: name, owner: ownerName(status.st_uid))
            }
            if code == ENXIO, path == "/dev/tty" {
                throw .io(
                    path: name, function: "open", errno: code,
                    message: "tether has no controlling terminal (run from a terminal, or give a serial port)")
            }
            throw SerialError.fromErrno(code, path: name, function: "open")
        }
        guard isatty(descriptor) == 1 else {
            Glibc.close(descriptor)
            throw .notASerialPort(path: name)
        }
        let node = DeviceNode(
            name: name, path: path, deviceNumber: UInt64(status.st_rdev),
            fileSystemDevice: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        return (node, descriptor)
    }

    /// The login name of user `uid`, or `uid N` when it has none.
    static func ownerName(_ uid: uid_t) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
        return String(cString: name)
    }

    /// The major number of a Linux device number (glibc's `major()`).
    static func major(_ device: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff))
    }

    /// The minor number of a Linux device number (glibc's `minor()`).
    static func minor(_ device: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: (device & 0xff) | ((device >> 12) & ~0xff))
    }
}
