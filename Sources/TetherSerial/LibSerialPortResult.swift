import CLibSerialPort

/// Turns a libserialport result into its non-negative value, or throws.
///
/// - `SP_ERR_FAIL` (the OS call failed): classified by `sp_last_error_code()` as in
///   ``SerialError/fromErrno(_:path:function:message:)``, with the text of
///   `sp_last_error_message()` (freed with `sp_free_error_message`).
/// - `SP_ERR_ARG`: tether passed libserialport an invalid argument — a bug in tether,
///   reported as such.
/// - `SP_ERR_MEM`: out of memory. `SP_ERR_SUPP`: the port does not support the
///   requested operation or setting.
///
/// - Parameters:
///   - result: what the libserialport function returned.
///   - function: its name, e.g. `"sp_set_baudrate"`.
///   - path: the port name as the user gave it.
/// - Returns: the result's value (a byte count for reads and writes, else 0).
/// - Throws: ``SerialError`` as above.
@discardableResult
func check(_ result: sp_return, function: String, path: String) throws(SerialError) -> Int {
    let value = Int(result.rawValue)
    if value >= 0 { return value }
    switch result {
    case SP_ERR_FAIL:
        let code = sp_last_error_code()
        var message = "failed"
        if let text = sp_last_error_message() {
            message = String(cString: text)
            sp_free_error_message(text)
        }
        throw SerialError.fromErrno(code, path: path, function: function, message: message)
    case SP_ERR_ARG:
        throw .io(
            path: path, function: function, errno: 0,
            message: "invalid argument from tether (a bug in tether, please report it)")
    case SP_ERR_MEM:
        throw .io(path: path, function: function, errno: 0, message: "out of memory")
    case SP_ERR_SUPP:
        throw .io(path: path, function: function, errno: 0, message: "not supported by this port")
    default:
        throw .io(path: path, function: function, errno: 0, message: "unknown libserialport error \(value)")
    }
}
