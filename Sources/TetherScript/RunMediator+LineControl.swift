import Dispatch
import Synchronization
import TetherModel
import TetherSerial

extension RunMediator {
    /// Runs `sequence` on device `index`'s port loop (``Device/run(_:)``) and waits for
    /// its end, blocking the calling thread. Script thread only: a thread of its own,
    /// never one of Swift's cooperative pool.
    ///
    /// - Returns: `nil`, or why the port refused.
    func run(_ sequence: LineSequence, on index: Int) -> SerialError? {
        let device = devices[index].device
        return waitFor { () async -> SerialError? in
            do throws(SerialError) {
                try await device.run(sequence)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Changes device `index`'s baud rate (``Device/setBaudRate(_:)``) and waits,
    /// blocking the calling thread. Script thread only.
    ///
    /// - Returns: the settings read back from the port (`921600 8N1`), or why it failed.
    func setBaudRate(_ baudRate: Int, on index: Int) -> Result<String, SerialError> {
        let device = devices[index].device
        return waitFor { () async -> Result<String, SerialError> in
            do throws(SerialError) {
                try await device.setBaudRate(baudRate)
                return .success(device.settings ?? "\(baudRate)")
            } catch {
                return .failure(error)
            }
        }
    }

    /// The value of `body`, run in a task, with the calling thread blocked meanwhile.
    private func waitFor<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
        let result = Mutex<Value?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}
