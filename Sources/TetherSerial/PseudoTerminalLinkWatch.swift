import Glibc
import Synchronization

/// Keeps a reconnect from reopening a symbolic link to a pseudo-terminal slave that
/// was not made again (docs/HARDWARE.md, "The device goes away and comes back").
///
/// When the program behind a pty ends without removing its link (`/tmp/devA →
/// /dev/pts/1`), the kernel gives `/dev/pts/1` to the next pty anyone opens: another
/// program's terminal. A program that serves a pty again makes its link again
/// (`tether-sim --link`, socat's `link=`), so the link is a new file. A link to a pty
/// slave is therefore reopened only when it is not the very link of the last open
/// (another inode, or changed since); device nodes, other links and network ports are
/// not affected.
public final class PseudoTerminalLinkWatch: Sendable {
    /// A link as `lstat` sees it.
    public struct LinkIdentity: Equatable, Sendable {
        var device: UInt
        var inode: UInt
        var changed: timespec

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.changed.tv_sec == rhs.changed.tv_sec
                && lhs.changed.tv_nsec == rhs.changed.tv_nsec
        }
    }

    /// The link of the last open, when it led to a pty slave.
    private let lastOpened = Mutex<LinkIdentity?>(nil)

    /// A watch that has seen no open yet.
    public init() {}

    /// Opens `path` with `open`, unless `path` is the link to a pty slave opened last
    /// time; remembers the link.
    ///
    /// - Throws: ``SerialError/notFound(path:)`` for that stale link (a reconnect keeps
    ///   waiting for it to be made again); what `open` throws.
    public func open<Port>(_ path: String, _ open: () throws(SerialError) -> Port) throws(SerialError) -> Port {
        let link = Self.ptyLink(at: path)
        if let link, lastOpened.withLock({ $0 == link }) { throw .notFound(path: path) }
        let port = try open()
        lastOpened.withLock { $0 = link }
        return port
    }

    /// The identity of the symbolic link at `path` when it leads to a pty slave
    /// (character device of a Unix 98 pty slave major, 136–143); `nil` otherwise.
    public static func ptyLink(at path: String) -> LinkIdentity? {
        var link = stat()
        var target = stat()
        guard lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK, stat(path, &target) == 0,
            target.st_mode & S_IFMT == S_IFCHR
        else { return nil }
        let major = ((target.st_rdev >> 8) & 0xfff) | ((target.st_rdev >> 32) & ~0xfff)
        guard (136...143).contains(major) else { return nil }
        return LinkIdentity(device: UInt(link.st_dev), inode: UInt(link.st_ino), changed: link.st_ctim)
    }
}
