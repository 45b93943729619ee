import TetherLibC

/// Who holds the master side of a live pseudo-terminal, found in `/proc`: a process
/// with an open `/dev/ptmx` whose `fdinfo` gives the slave's number (`tty-index`,
/// Linux 4.14 and later).
enum PseudoTerminalOwner {
    /// `tether-sim (pid 1234)` for the holder of `/dev/pts/index`'s master, or `nil`
    /// when none is found (another user's process, an older kernel).
    static func describe(slave index: Int) -> String? {
        let processes = FileSystem.entries(ofDirectory: "/proc") ?? []
        for pid in processes where Int(pid) != nil {
            let descriptors = FileSystem.entries(ofDirectory: "/proc/\(pid)/fd") ?? []
            for descriptor in descriptors {
                guard
                    FileSystem.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)") == "/dev/ptmx",
                    let info = text(ofFile: "/proc/\(pid)/fdinfo/\(descriptor)"),
                    info.split(separator: "\n").contains("tty-index:\t\(index)")
                else { continue }
                let name = text(ofFile: "/proc/\(pid)/comm")?.split(separator: "\n").first
                return "\(name ?? "process") (pid \(pid))"
            }
        }
        return nil
    }

    /// The text of the file at `path`, or `nil` when it cannot be read.
    private static func text(ofFile path: String) -> String? {
        FileSystem.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }
}
