import Glibc
import Synchronization
import TetherLibC

/// A symbolic link to the slave (e.g. `/tmp/ttyENV -> /dev/pts/7`), so that a client can
/// use a stable name, as with a udev `SYMLINK+=` rule.
///
/// An existing symbolic link at the path is replaced when it is stale: the device it
/// names is gone, or was made after the link (its pty number was given again, to any
/// process, after the simulator that made the link died). One that leads to a device
/// older than itself (another simulator's live pty) is refused, naming the process that
/// serves it, and so is any other kind of file. ``remove()`` deletes the link only while it still points to our slave. Links
/// are also removed when the process calls `exit` (an `atexit` handler); signals are the
/// host program's business (`tether-sim` stops the simulator on SIGINT and SIGTERM).
final class DeviceLink: Sendable {
    /// Absolute path of the link.
    let path: String
    /// The slave path the link points to.
    let target: String

    /// Creates the link `path` → `target`.
    ///
    /// - Parameters:
    ///   - path: Where to create the link; relative paths are taken from the current
    ///     directory and stored as absolute paths.
    ///   - target: The slave's path.
    /// - Throws: ``SimulatorError`` `.linkPathOccupied` when `path` exists and is not a
    ///   symbolic link, or is one to a device that exists (a live simulator's pty), `.linkFailed` (with the errno) when `unlink` or `symlink` fails.
    init(path: String, target: String) throws(SimulatorError) {
        let absolute =
            path.hasPrefix("/") ? path : FileSystem.currentDirectory + "/" + path
        var status = stat()
        if lstat(absolute, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFLNK else {
                throw SimulatorError(
                    .linkPathOccupied,
                    "cannot create the link \(Quoted(absolute)): a file that is not a symbolic link is in the way"
                )
            }
            var target = stat()
            if stat(absolute, &target) == 0, target.st_mode & S_IFMT == S_IFCHR,
                !Self.precedes(status.st_mtim, target.st_ctim)
            {
                throw SimulatorError(.linkPathOccupied, Self.liveLinkMessage(absolute))
            }
            guard unlink(absolute) == 0 else {
                throw SimulatorError(
                    .linkFailed, "cannot replace the old link \(Quoted(absolute))", osError: errno)
            }
        }
        guard symlink(target, absolute) == 0 else {
            throw SimulatorError(
                .linkFailed, "cannot create the link \(Quoted(absolute)) to \(target)", osError: errno)
        }
        self.path = absolute
        self.target = target
        DeviceLink.registerExitHandler
        DeviceLink.live.withLock { $0[absolute] = target }
    }

    /// Whether `link` (a symbolic link's modification time: when it was made) is earlier
    /// than `device` (a device node's change time: when devpts made the pty, or a real
    /// port's node appeared). A link made before its device cannot be that device's.
    private static func precedes(_ link: timespec, _ device: timespec) -> Bool {
        (link.tv_sec, link.tv_nsec) < (device.tv_sec, device.tv_nsec)
    }

    /// Why the link at `path`, which leads to a device that exists, is not replaced:
    /// it is another simulator's (or a real port's) link, and taking it over would
    /// leave that one unreachable.
    private static func liveLinkMessage(_ path: String) -> String {
        let destination = FileSystem.destinationOfSymbolicLink(atPath: path) ?? "?"
        var holder = ""
        if destination.hasPrefix("/dev/pts/"), let index = Int(destination.dropFirst("/dev/pts/".count)),
            let owner = PseudoTerminalOwner.describe(slave: index)
        {
            holder = ", served by \(owner)"
        }
        return "cannot create the link \(Quoted(path)): it points to \(destination), a live device\(holder); "
            + "stop that simulator or choose another --link"
    }

    /// Deletes the link if it still points to ``target``; idempotent.
    func remove() {
        DeviceLink.live.withLock { $0[path] = nil }
        DeviceLink.removeLink(path, pointingTo: target)
    }

    /// Links created and not yet removed, path → target, for the exit handler.
    private static let live = Mutex<[String: String]>([:])

    /// Installs, once, the `atexit` handler that removes the live links.
    private static let registerExitHandler: Void = {
        atexit {
            for (path, target) in DeviceLink.live.withLock({ $0 }) {
                DeviceLink.removeLink(path, pointingTo: target)
            }
        }
    }()

    private static func removeLink(_ path: String, pointingTo target: String) {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length >= 0 else { return }
        let current = String(
            decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if current == target {
            unlink(path)
        }
    }
}
