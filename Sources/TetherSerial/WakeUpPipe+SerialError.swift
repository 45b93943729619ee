import TetherPoll

extension WakeUpPipe {
    /// Creates the pipe for the port `portName`, failing as the port's other calls do.
    ///
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` naming `pipe` or
    ///   `fcntl`, e.g. when the process is out of descriptors.
    public init(for portName: String) throws(SerialError) {
        do {
            try self.init()
        } catch {
            throw .io(path: portName, function: error.function, errno: error.errno, message: error.message)
        }
    }
}
