import Glibc

extension SerialError {
    /// Classifies a failed system call or libserialport function by its OS `errno`.
    ///
    /// `ENOENT`/`ENOTDIR`/`ELOOP` → ``notFound(path:)``, `EACCES`/`EPERM` →
    /// ``permissionDenied(path:owner:)``, `EBUSY` → ``busy(path:holder:)`` (holder unknown),
    /// `EIO`/`ENXIO`/`ENODEV` → ``disconnected(path:)``; anything else →
    /// ``io(path:function:errno:message:)``.
    ///
    /// - Parameters:
    ///   - code: the OS `errno`.
    ///   - path: the port name as the user gave it.
    ///   - function: the C function that failed, e.g. `"open"` or `"sp_open"`.
    ///   - message: the text for ``io(path:function:errno:message:)``; `strerror(code)`
    ///     when nil.
    static func fromErrno(
        _ code: Int32, path: String, function: String, message: String? = nil
    ) -> SerialError {
        switch code {
        case ENOENT, ENOTDIR, ELOOP: .notFound(path: path)
        case EACCES, EPERM: .permissionDenied(path: path)
        case EBUSY: .busy(path: path, holder: nil)
        case EIO, ENXIO, ENODEV: .disconnected(path: path)
        default:
            .io(path: path, function: function, errno: code, message: message ?? String(cString: strerror(code)))
        }
    }
}
