import Glibc
import TetherLibC

/// The files a transfer sends and receives on this machine's disk (`tether send` and
/// `receive`, Lua's `send_file` and `receive_file`), with the errors a user can act on.
public enum LocalFile {
    /// A file that cannot be read or written: `cannot read 'a.bin': No such file or
    /// directory`.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Whether it was a write (else a read).
        public let isWrite: Bool
        /// The one-line message, naming the path and the system's reason.
        public let description: String
    }

    /// Reads the file at `path` whole, with its name (no folder), modification time
    /// and mode for YMODEM's block 0.
    ///
    /// - Throws: ``Failure`` when it is missing, unreadable or a folder.
    public static func read(_ path: String) throws(Failure) -> TransferFile {
        func failure(_ code: Int32) -> Failure {
            Failure(isWrite: false, description: "cannot read \(Quoted(path)): \(String(cString: strerror(code)))")
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
    /// - Throws: ``Failure`` when it cannot be created or written.
    public static func write(_ data: [UInt8], to path: String, overwrites: Bool) throws(Failure) -> String {
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

    /// The name of a file received by XMODEM (which carries none) in a folder.
    public static let unnamedFile = "received.bin"

    /// The folder files received by `kind` at `path` go into: `path` itself for YMODEM
    /// (a batch) or when it is a folder, else the folder of the file `path` (`.` for a
    /// bare name).
    public static func folder(receiving kind: TransferProtocol, at path: String) -> String {
        if kind.isBatch || isDirectory(path) { return path }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Writes `file`, received by `kind`, at `path`: YMODEM's under its own name in the
    /// folder `path`; XMODEM's to the file `path`, or as ``unnamedFile`` in it when it is
    /// a folder. An existing file is replaced only when `overwrites`, as
    /// ``write(_:to:overwrites:)`` does.
    ///
    /// - Returns: the path written.
    /// - Throws: ``Failure`` when it cannot be created or written.
    public static func write(
        _ file: TransferFile, receivedBy kind: TransferProtocol, at path: String, overwrites: Bool
    ) throws(Failure) -> String {
        let target =
            kind.isBatch || isDirectory(path)
            ? folder(receiving: kind, at: path) + "/" + (file.name ?? unnamedFile) : path
        return try write(file.data, to: target, overwrites: overwrites)
    }

    /// Checks, before a transfer, that files can be created in the existing `folder`,
    /// so a file received is never reported and then lost (`access(2)`, `W_OK`).
    ///
    /// - Throws: ``Failure`` naming the folder and the system's reason.
    public static func checkWritable(folder: String) throws(Failure) {
        guard access(folder, W_OK | X_OK) == 0 else {
            throw Failure(
                isWrite: true, description: "cannot write in \(Quoted(folder)): \(String(cString: strerror(errno)))")
        }
    }

    /// Whether `path` is an existing folder.
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    private static func writeFailure(_ path: String, _ code: Int32) -> Failure {
        Failure(isWrite: true, description: "cannot write \(Quoted(path)): \(String(cString: strerror(code)))")
    }
}
