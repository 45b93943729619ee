import Glibc

extension SessionShare {
    /// A listening Unix domain socket at `path`; a socket file there that nobody
    /// listens on (left by a session that died) is replaced.
    static func listen(at path: String) throws(Failure) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else {
            throw Failure(description: "the socket path \(path) is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFSOCK else {
                throw Failure(description: "\(path) exists and is not a socket")
            }
            if connects(to: address, length: length) {
                throw Failure(description: "\(path) is in use by another session")
            }
            unlink(path)
        }
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        guard listener >= 0 else { throw Failure(description: errorText("socket")) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, Glibc.listen(listener, 8) == 0 else {
            let text = errorText("cannot listen on \(path)")
            close(listener)
            throw Failure(description: text)
        }
        return listener
    }

    /// Whether a session listens at `address`.
    private static func connects(to address: sockaddr_un, length: socklen_t) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        var address = address
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, length) }
        } == 0
    }

    /// A new pseudo-terminal (`openpty`): its master (non-blocking), its slave kept
    /// open and set to raw mode (bytes pass as they are), and the slave's path.
    static func openPseudoTerminal() throws(Failure) -> (master: Int32, slave: Int32, path: String) {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else {
            throw Failure(description: errorText("cannot make a pseudo-terminal"))
        }
        var name = [CChar](repeating: 0, count: 128)
        let nameError = ttyname_r(slave, &name, name.count)
        guard nameError == 0 else {
            close(master)
            close(slave)
            throw Failure(description: "cannot name the pseudo-terminal: \(String(cString: strerror(nameError)))")
        }
        var settings = termios()
        if tcgetattr(slave, &settings) == 0 {
            cfmakeraw(&settings)
            tcsetattr(slave, TCSANOW, &settings)
        }
        for descriptor in [master, slave] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        return (master, slave, String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// `what: strerror(errno)`.
    static func errorText(_ what: String) -> String {
        "\(what): \(String(cString: strerror(errno)))"
    }
}
