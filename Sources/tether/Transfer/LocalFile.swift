import Glibc
import TetherTransfer

/// The files `send` reads and `receive` writes, with the errors a user can act on.
enum LocalFile {
    /// Reads the file at `path` whole, with its name (no folder), modification time
    /// and mode for YMODEM's block 0.
    ///
    /// - Throws: ``CommandFailure`` (66) when it is missing, unreadable or a folder.
    static func read(_ path: String) throws(CommandFailure) -> TransferFile {
        func failure(_ code: Int32) -> CommandFailure {
            CommandFailure("cannot read '\(path)': \(String(cString: strerror(code)))", code: .portNotFound)
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(errno) }
        guard info.st_mode & S_IFMT != S_IFDIR else { throw failure(EISDIR) }
        var data: [UInt8] = []
        data.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw failure(errno) }
            guard count > 0 else { break }
            data += chunk[..<count]
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return TransferFile(
            name: name, data: data, modificationTime: Int(info.st_mtim.tv_sec), mode: Int(info.st_mode))
    }

    /// Writes `data` to `path`; an existing file is replaced only when `overwrites`,
    /// else the data goes to `path.1`, `path.2`… (the first that does not exist).
    ///
    /// - Returns: the path written.
    /// - Throws: ``CommandFailure`` (73) when it cannot be created or written.
    static func write(_ data: [UInt8], to path: String, overwrites: Bool) throws(CommandFailure) -> String {
        var target = path
        var suffix = 0
        while true {
            let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (overwrites ? O_TRUNC : O_EXCL)
            let descriptor = open(target, flags, 0o644)
            if descriptor < 0 && errno == EEXIST && !overwrites {
                suffix += 1
                target = "\(path).\(suffix)"
                continue
            }
            guard descriptor >= 0 else { throw writeFailure(target, errno) }
            defer { close(descriptor) }
            var written = 0
            while written < data.count {
                let count = data[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw writeFailure(target, errno) }
                written += count
            }
            return target
        }
    }

    /// Whether `path` is an existing folder.
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    private static func writeFailure(_ path: String, _ code: Int32) -> CommandFailure {
        CommandFailure("cannot write '\(path)': \(String(cString: strerror(code)))", code: .cannotCreateLog)
    }
}
