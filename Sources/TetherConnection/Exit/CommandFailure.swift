import TetherDeviceSettings
import TetherSerial
import TetherTransfer

/// A command that could not do its job: a one-line message for stderr and the exit
/// code that says why.
package struct CommandFailure: Error {
    /// The message after `Error: `, one line (a line break in it is shown escaped).
    package var message: String
    /// Lines shown under the message, one per item (the ports a `--match` could mean).
    package var details: [String]
    /// The exit code.
    package var code: ExitCode
    /// Whether to print the usage after the message (usage errors).
    package var showsUsage = false

    package init(_ message: String, details: [String] = [], code: ExitCode) {
        self.message = message
        self.details = details
        self.code = code
    }

    /// A usage error found after parsing (e.g. a missing port).
    package init(usage message: String) {
        self.init(message, code: .usage)
        showsUsage = true
    }

    /// A transport error, with the exit code for its kind.
    package init(_ error: SerialError) {
        let code: ExitCode =
            switch error {
            case .notFound: .portNotFound
            case .permissionDenied, .notASerialPort, .busy: .portUnavailable
            case .invalidConfiguration: .usage
            case .settingsNotApplied: .settingsNotApplied
            case .disconnected, .io: .ioError
            }
        if case .notFound(let path) = error, NamedDevices.mayName(path) {
            // `lab-psu` is no file here and no configured name either.
            self.init(NamedDevices().unknown(path), code: code)
        } else {
            self.init(error.description, code: code)
        }
    }

    /// A file a transfer cannot read (66) or write (73).
    package init(_ error: LocalFile.Failure) {
        self.init(error.description, code: error.isWrite ? .cannotCreateLog : .portNotFound)
    }
}
