import Glibc
import TetherLibC

extension Script {
    /// A script file or stream that cannot be read, e.g. `checks.txt: no such file`.
    public struct Unreadable: Error, Sendable, Equatable, CustomStringConvertible {
        /// The message, `NAME: REASON`.
        public let description: String

        /// Creates the error with its message.
        public init(description: String) {
            self.description = description
        }
    }

    /// Reads the script at `path` (`-`: standard input, named `stdin`): a file, or any
    /// readable stream (a FIFO, process substitution `<(…)`, `/dev/null`). A UTF-8
    /// byte-order mark at the start is dropped (editors on Windows write one). Its
    /// language is its name's (``language(ofFileNamed:)``), or Lua when `forcingLua`.
    ///
    /// - Throws: ``Unreadable`` when it does not exist, is a directory or cannot be
    ///   read; ``ScriptError`` when it is not UTF-8 text, is blank or is longer than
    ///   ``maximumSize``.
    public static func read(_ path: String, forcingLua: Bool) throws -> Script {
        let name = path == "-" ? "stdin" : path
        var bytes = try contents(of: path)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        // A binary file given by mistake must not be sent to a device line by line.
        guard let text = String(validating: bytes, as: UTF8.self), !text.contains("\0") else {
            throw ScriptError(at: nil, "\(Quoted(name).bare): not a text file (NUL bytes or invalid UTF-8)")
        }
        if text.allSatisfy(\.isWhitespace) {
            throw ScriptError(at: nil, "\(Quoted(name).bare): the script is empty; there is nothing to run")
        }
        let language: Language = forcingLua ? .lua : language(ofFileNamed: name)
        return Script(name: name, text: text, language: language)
    }

    /// The longest script read, in bytes (16 MiB): far more than any query file or Lua
    /// script a person writes, and a bound on what an endless stream (`/dev/zero`, a
    /// generator that never stops) can make tether hold.
    public static let maximumSize = 16 << 20

    /// Every byte of the file or stream at `path` (`-`: standard input), at most
    /// ``maximumSize``.
    ///
    /// - Throws: ``Unreadable`` when it cannot be read; ``ScriptError`` when it holds
    ///   more than ``maximumSize`` bytes (it is not read further).
    private static func contents(of path: String) throws -> [UInt8] {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "no such file" : String(cString: strerror(errno)).lowercased()
            throw Unreadable(description: "\(Quoted(path).bare): \(reason)")
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw Unreadable(description: "\(Quoted(path).bare): is a directory")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                guard bytes.count + count <= maximumSize else {
                    let name = path == "-" ? "stdin" : path
                    let limit = "\(maximumSize >> 20) MiB"
                    throw ScriptError(at: nil, "\(Quoted(name).bare): longer than \(limit), the most a script may hold")
                }
                bytes += chunk[..<count]
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                let reason = String(cString: strerror(errno)).lowercased()
                throw Unreadable(description: "\(Quoted(path).bare): cannot be read (\(reason))")
            }
        }
    }
}
