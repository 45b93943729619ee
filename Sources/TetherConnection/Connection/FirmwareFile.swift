import TetherPresenter
import TetherSymbols

/// The firmware's ELF file `--elf` names, opened for the presenter's crash addresses.
package enum FirmwareFile {
    /// The symbols of the file at `path`, or `nil` without one.
    ///
    /// - Throws: ``CommandFailure`` (79) when the file is missing, unreadable or not ELF.
    package static func symbols(_ path: String?) throws(CommandFailure) -> (any AddressSymbolizing)? {
        guard let path else { return nil }
        do throws(ELFFileError) {
            return try ELFSymbols(path: path)
        } catch {
            throw CommandFailure(error.description, code: .elfUnreadable)
        }
    }
}
