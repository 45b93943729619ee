import TetherModel

extension SessionShare {
    /// The share of `device`'s session (`--socket`, `--pty`), fed by an observer of its
    /// own (lossless, with the bytes read) until the device closes; `nil` when neither
    /// is asked for. What a client writes goes to the device as a raw write
    /// (``Device/write(_:)``): in turn with what is typed.
    ///
    /// - Throws: ``Failure`` as ``init(socketPath:pty:send:)`` does.
    public static func sharing(_ device: Device, socketPath: String?, pty: Bool) throws(Failure) -> SessionShare? {
        guard socketPath != nil || pty else { return nil }
        let share = try SessionShare(socketPath: socketPath, pty: pty) { _ = device.write($0) }
        let events = device.events(.lossless, includesBytes: true)
        Task {
            for await event in events {
                if case .received(let bytes) = event.kind { share.deliver(bytes) }
            }
        }
        return share
    }
}
