import TetherSerial

extension Device {
    /// Reopens the port after a disconnect, until it opens or the device is closed.
    ///
    /// Attempts follow the opener's backoff (100 ms doubling to 2 s by default); the
    /// actor is free while it sleeps, so waiting costs no CPU. A port that does not
    /// exist yet (`notFound`: the node is gone, the link dangles) is the normal state
    /// while the device is away and is not reported; any other failure (busy,
    /// permission denied…) is published once as an `error` event each time it
    /// changes. On success the device gets a fresh ``Session`` and publishes
    /// `reconnected`; notifications flow again.
    func reconnect(using opener: PortOpener, since lostAt: ContinuousClock.Instant) async {
        var attempts = 0
        var reported: String?
        while !isClosing && !Task.isCancelled {
            try? await Task.sleep(for: opener.delay(afterFailures: attempts + 1))
            if isClosing || Task.isCancelled { return }
            attempts += 1
            do throws(SerialError) {
                let fresh = try await opener.openOnce()
                guard !isClosing else { return fresh.close() }
                transport = fresh
                session = blankSession
                generation += 1
                isConnected = true
                let event = DeviceEvent.Kind.reconnected(
                    port: port, settings: settings, attempts: attempts, downtime: .now - lostAt)
                hub.publish(DeviceEvent(kind: event))
                await startReading()
                return
            } catch .notFound {
                continue
            } catch {
                let message = "cannot reopen the port yet: \(error)"
                if message != reported { hub.publish(DeviceEvent(kind: .error(message))) }
                reported = message
            }
        }
    }
}
