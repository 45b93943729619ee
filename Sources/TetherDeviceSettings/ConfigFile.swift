import CInih
import TetherCommandLine
import TetherLibC

/// The named devices' configuration file: INI, as tio's, read by inih (Debian's
/// `libinih`), one `[name]` section a device, e.g.
///
/// ```ini
/// # ~/.config/tether/config
/// [lab-psu]
/// port = /dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A1B2C3-if00-port0
/// baud = 9600
/// dialect = scpi
///
/// [modem]
/// match = 2c7c:0125
/// device = ~/devices/quectel.json
/// urc = ^RDY
/// urc = ^\+QIND
/// ```
///
/// A key repeated in a section adds a value (repeatable options such as `urc`); a
/// later value of any other key replaces the earlier. Comments start with `#` or `;`
/// at a line's start, and with ` ;` after a value. A line holds at most 198 bytes
/// (inih's `INI_MAX_LINE`). See docs/CONFIG.md.
public struct ConfigFile: Sendable, Equatable {
    /// One `[name]` section: its keys' values, in the order given.
    public struct Section: Sendable, Equatable {
        /// The name between the brackets, e.g. `lab-psu`.
        public var name: String
        /// The values of each key, e.g. `["urc": ["^RDY", "^\\+QIND"]]`.
        public var values: [String: [String]]
    }

    /// The file's path as read, for messages.
    public var path: String
    /// Its sections in the order they appear.
    public var sections: [Section]

    /// Reads the file at `path`.
    ///
    /// - Returns: `nil` when no file is there (a configuration is optional).
    /// - Throws: ``UsageError`` `PATH: line N: …` for a line inih cannot read (no `=`, no
    ///   closing `]`) or that ``checkLines(_:file:)`` refuses, `PATH: 'KEY' is outside any
    ///   '[name]' section`; `The configuration file 'PATH' is a directory, not a file`, `is
    ///   not a regular file`, `holds N bytes; at most 1048576` or `cannot be read`.
    public static func load(_ path: String) throws(UsageError) -> ConfigFile? {
        guard let kind = FileSystem.kind(atPath: path) else { return nil }
        guard kind != .directory else {
            throw UsageError("The configuration file \(Quoted(path)) is a directory, not a file")
        }
        guard let size = FileSystem.regularFileSize(atPath: path) else {
            throw UsageError("The configuration file \(Quoted(path)) is not a regular file (a FIFO, a device…)")
        }
        guard size <= Self.largestFile else {
            throw UsageError("The configuration file \(Quoted(path)) holds \(size) bytes; at most \(Self.largestFile)")
        }
        guard let bytes = FileSystem.contents(atPath: path) else {
            throw UsageError("The configuration file \(Quoted(path)) cannot be read")
        }
        return try parse(bytes, file: path)
    }

    /// The largest configuration file read, in bytes (1 MiB: some thousands of devices).
    static let largestFile = 1 << 20

    /// Reads a configuration's bytes (see ``load(_:)``).
    ///
    /// - Throws: ``UsageError`` as ``load(_:)`` does, and for what ``checkLines(_:file:)``
    ///   refuses.
    public static func parse(_ bytes: [UInt8], file path: String) throws(UsageError) -> ConfigFile {
        try Self.checkLines(bytes, file: path)
        let reader = Reader()
        let result = (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text in
                withExtendedLifetime(reader) {
                    ini_parse_string(text.baseAddress, Reader.handle, Unmanaged.passUnretained(reader).toOpaque())
                }
            }
        }
        if result > 0 {
            throw UsageError(
                "\(path): line \(result): expected '[name]', 'key = value' or a comment")
        }
        if let key = reader.keyOutsideSections {
            throw UsageError("\(path): \(Quoted(key)) is outside any '[name]' section; put it under its device's name")
        }
        return ConfigFile(path: path, sections: reader.sections)
    }

    /// The longest line inih reads whole, in bytes without its line end (`INI_MAX_LINE`
    /// of Debian's build, 200, less the line end and the NUL).
    static let longestLine = 198

    /// The section called `name`, if any.
    public func section(_ name: String) -> Section? { sections.first { $0.name == name } }
}

/// What inih's callback fills: it is called once per `key = value`, in order.
private final class Reader {
    var sections: [ConfigFile.Section] = []
    /// Each section's index in ``sections``.
    private var indices: [String: Int] = [:]
    /// The first key given before any section.
    var keyOutsideSections: String?

    /// inih's handler: returns nonzero to go on.
    static let handle: ini_handler = { user, section, name, value in
        guard let user, let name, let value else { return 0 }
        let reader = Unmanaged<Reader>.fromOpaque(user).takeUnretainedValue()
        let sectionName = section.map { String(cString: $0) } ?? ""
        reader.add(section: sectionName, key: String(cString: name), value: String(cString: value))
        return 1
    }

    func add(section: String, key: String, value: String) {
        guard !section.isEmpty else {
            keyOutsideSections = keyOutsideSections ?? key
            return
        }
        if let index = indices[section] {
            sections[index].values[key, default: []].append(value)
        } else {
            indices[section] = sections.count
            sections.append(ConfigFile.Section(name: section, values: [key: [value]]))
        }
    }
}
