import Glibc

/// The file system through the C library (`open`/`read`, `opendir`/`readdir`,
/// `readlink`, `stat`, `mkdir`, `realpath`), where Foundation's `FileManager` would link
/// most of FoundationEssentials into the executables (docs/PERFORMANCE.md).
public enum FileSystem {
    /// What a path names, following symbolic links.
    public enum Kind: Sendable, Equatable {
        case directory
        /// Anything else: a regular file, a device, a FIFO…
        case other
    }

    /// The whole contents of the file at `path`; `nil` when it cannot be opened or
    /// read (it does not exist, permission denied, a directory).
    public static func contents(atPath path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return readAll(descriptor)
    }

    /// Every byte `descriptor` gives until its end, read in 64 KiB pieces (`EINTR`
    /// retried); `nil` on an error, with `errno` telling which.
    public static func readAll(_ descriptor: Int32) -> [UInt8]? {
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return contents }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            contents.append(contentsOf: chunk[..<count])
        }
    }

    /// Calls `body` with each line `descriptor` gives until its end (without its LF; the
    /// last line also when no LF ends it), reading 1 MiB pieces (`EINTR` retried), so a
    /// file of any length is read in one pass with one piece and one line in memory.
    /// Returns `false` on a read error, with `errno` telling which.
    public static func forEachLine(_ descriptor: Int32, _ body: (ArraySlice<UInt8>) -> Void) -> Bool {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            if count == 0 {
                if !pending.isEmpty { body(pending[...]) }
                return true
            }
            var start = 0
            while let end = chunk[start..<count].firstIndex(of: 0x0A) {
                if pending.isEmpty {
                    body(chunk[start..<end])
                } else {
                    pending.append(contentsOf: chunk[start..<end])
                    body(pending[...])
                    pending.removeAll(keepingCapacity: true)
                }
                start = end + 1
            }
            pending.append(contentsOf: chunk[start..<count])
        }
    }

    /// The names in the directory at `path` (without `.` and `..`), in the order the
    /// directory gives them; `nil` when it cannot be opened.
    public static func entries(ofDirectory path: String) -> [String]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The path the symbolic link at `path` holds, as written; `nil` when `path` is
    /// not a symbolic link.
    public static func destinationOfSymbolicLink(atPath path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let count = readlink(path, &buffer, buffer.count)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What `path` names (links followed); `nil` when nothing is there.
    public static func kind(atPath path: String) -> Kind? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT == S_IFDIR ? .directory : .other
    }

    /// The size in bytes of the regular file at `path` (links followed); `nil` when
    /// nothing is there or it is something else (a directory, a FIFO, a device).
    public static func regularFileSize(atPath path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Whether `path` names a character device (a serial port, a pty), links followed.
    public static func isCharacterDevice(atPath path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFCHR
    }

    /// Makes the directory at `path` and any missing directory above it (`mkdir -p`,
    /// mode 0777 before the umask).
    ///
    /// - Returns: whether the directory is there afterwards.
    @discardableResult
    public static func createDirectories(atPath path: String) -> Bool {
        if kind(atPath: path) == .directory { return true }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            createDirectories(atPath: String(path[..<slash]))
        }
        return mkdir(path, 0o777) == 0 || kind(atPath: path) == .directory
    }

    /// The current directory (`getcwd`); `/` when it cannot be found (it was removed).
    public static var currentDirectory: String {
        guard let path = getcwd(nil, 0) else { return "/" }
        defer { free(path) }
        return String(cString: path)
    }

    /// `path` with its symbolic links, `.` and `..` resolved (`realpath`); `path` as
    /// given when that fails (nothing is there).
    public static func resolvingSymbolicLinks(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
