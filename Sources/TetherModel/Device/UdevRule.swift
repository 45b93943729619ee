import TetherLibC
import TetherSerial

/// A udev rule that gives one USB serial adapter a stable name: what
/// `tether udev-rule PORT --name NAME` prints.
///
/// The rule matches the adapter's tty by USB vendor ID, product ID and — when the
/// adapter has one — serial number (`ATTRS{idVendor}`, `ATTRS{idProduct}`,
/// `ATTRS{serial}`), and by interface number (`ENV{ID_USB_INTERFACE_NUM}`) when its
/// `/dev/serial/by-id` link names one (multi-port chips), then creates the link
/// `/dev/NAME` (`SYMLINK+=`), gives the `dialout` group read and write access
/// (`GROUP="dialout"`, `MODE="0660"`) and asks ModemManager to leave it alone
/// (`ENV{ID_MM_DEVICE_IGNORE}="1"`). Syntax per udev(7).
package enum UdevRule {
    /// Why no rule can be written.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The port has no USB vendor and product ID (a built-in UART, a pty).
        case notUSB(port: String)
        /// The name is not usable as a `/dev` link.
        case invalidName(String, reason: String)

        package var description: String {
            switch self {
            case .notUSB(let port):
                "\(port) is not a USB serial adapter: a udev rule matches an adapter by its USB "
                    + "vendor and product ID (run 'tether list' to see the USB ports)"
            case .invalidName(let name, let reason):
                "\(Quoted(name)) cannot be a device name: \(reason)"
            }
        }
    }

    /// The rule for `port`, preceded by comment lines saying what it matches.
    ///
    /// - Parameters:
    ///   - port: the adapter as listed (``SerialPortInfo/list()``).
    ///   - name: the link to create under `/dev`, e.g. `bench-psu` or `lab/psu`.
    /// - Returns: the rule file's text, ending in a newline.
    /// - Throws: ``Failure/notUSB(port:)`` without a USB ID;
    ///   ``Failure/invalidName(_:reason:)`` for a name with characters other than
    ///   letters, digits, `.`, `_`, `-` and `/`, an absolute path, or a `..` part.
    package static func text(for port: SerialPortInfo, name: String) throws(Failure) -> String {
        try validate(name: name)
        guard let vendor = port.usbVendorID, let product = port.usbProductID, let usbID = port.usbID else {
            throw .notUSB(port: port.name)
        }
        let what = [port.manufacturer, port.product].compactMap { $0 }.joined(separator: " ")
        var lines = [
            "# \(what.isEmpty ? port.description : what) (\(usbID)), seen at \(port.name): /dev/\(name)",
            "# Install: sudo cp <this file> /etc/udev/rules.d/99-\(name.replacingSlashes).rules",
            "#          sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=tty",
        ]
        var fields = [
            #"SUBSYSTEM=="tty""#,
            #"ATTRS{idVendor}=="\#(SerialPortInfo.hexID(vendor))""#,
            #"ATTRS{idProduct}=="\#(SerialPortInfo.hexID(product))""#,
        ]
        if let serial = port.serialNumber, isSafeValue(serial) {
            fields.append(#"ATTRS{serial}=="\#(serial)""#)
        } else {
            lines.append(
                "# This adapter reports no usable serial number: identical adapters all match this rule."
            )
            lines.append("# To tell them apart, add KERNELS==\"<bus path>\" (see udevadm info -a -n \(port.name)).")
        }
        if let interface = interfaceNumber(in: port.byIDLinks) {
            fields.append(#"ENV{ID_USB_INTERFACE_NUM}=="\#(interface)""#)
        }
        fields += [
            #"SYMLINK+="\#(name)""#, #"GROUP="dialout""#, #"MODE="0660""#, #"ENV{ID_MM_DEVICE_IGNORE}="1""#,
        ]
        lines.append(fields.joined(separator: ", "))
        return lines.joined(separator: "\n") + "\n"
    }

    /// Checks that `name` can follow `/dev/` in a `SYMLINK+=` value.
    ///
    /// - Throws: ``Failure/invalidName(_:reason:)``.
    package static func validate(name: String) throws(Failure) {
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "._-/".unicodeScalars.contains($0)
        }
        guard !name.isEmpty else { throw .invalidName(name, reason: "it is empty") }
        guard allowed else {
            throw .invalidName(name, reason: "use only letters, digits, '.', '_', '-' and '/'")
        }
        guard !name.hasPrefix("/") else {
            throw .invalidName(name, reason: "give it without /dev/ (e.g. 'bench-psu'); it is made under /dev")
        }
        guard
            !name.split(separator: "/", omittingEmptySubsequences: false).contains(where: {
                $0.isEmpty || $0 == ".." || $0 == "."
            })
        else {
            throw .invalidName(name, reason: "it has an empty, '.' or '..' path part")
        }
    }

    /// The USB interface number (`00`, `01`…) from a by-id link such as
    /// `/dev/serial/by-id/usb-FTDI_Dual_RS232-HS-if01-port0`.
    static func interfaceNumber(in links: [String]) -> String? {
        for link in links where link.contains("/by-id/") {
            guard let start = link.ranges(of: "-if").last?.upperBound else { continue }
            let digits = link[start...].prefix(2)
            if digits.count == 2, digits.allSatisfy(\.isHexDigit) { return String(digits) }
        }
        return nil
    }

    /// Whether `value` can stand in a quoted udev match value as itself: printable
    /// ASCII without quotes, backslashes or glob characters.
    static func isSafeValue(_ value: String) -> Bool {
        !value.isEmpty
            && value.unicodeScalars.allSatisfy {
                $0.value >= 0x20 && $0.value < 0x7F && !"\"\\*?[]|".unicodeScalars.contains($0)
            }
    }
}

extension String {
    /// `lab/psu` → `lab-psu`, for a rule file name.
    fileprivate var replacingSlashes: String { split(separator: "/").joined(separator: "-") }
}
