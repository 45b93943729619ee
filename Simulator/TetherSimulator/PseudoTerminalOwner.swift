import FoundationEssentials

/// Who holds the master side of a live pseudo-terminal, found in `/proc`: a process
/// with an open `/dev/ptmx` whose `fdinfo` gives the slave's number (`tty-index`,
/// Linux 4.14 and later).
enum PseudoTerminalOwner {
    /// `tether-sim (pid 1234)` for the holder of `/dev/pts/index`'s master, or `nil`
    /// when none is found (another user's process, an older kernel).
    static func describe(slave index: Int) -> String? {
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for pid in processes where Int(pid) != nil {
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            for descriptor in descriptors {
                guard
                    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)"))
                        == "/dev/ptmx",
                    let info = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(descriptor)", encoding: .utf8),
                    info.split(separator: "\n").contains("tty-index:\t\(index)")
                else { continue }
                let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                    .split(separator: "\n").first
                return "\(name ?? "process") (pid \(pid))"
            }
        }
        return nil
    }
}
