import CLibSerialPort
import Glibc
import TetherLibC

/// One serial port the system knows of, as `tether list` shows it.
///
/// Gathered with libserialport's `sp_list_ports` and its `sp_get_port_*` functions;
/// the USB and Bluetooth fields are nil for other transports or when the kernel does
/// not report them.
public struct SerialPortInfo: Sendable, Equatable {
    /// How the port is attached.
    public enum Transport: String, Sendable, CaseIterable {
        /// A built-in UART or a port libserialport cannot classify.
        case native
        /// A USB adapter or a USB CDC-ACM device.
        case usb
        /// A Bluetooth RFCOMM port.
        case bluetooth
    }

    /// The device node, e.g. `/dev/ttyUSB0`.
    public var name: String
    /// libserialport's one-line description, e.g. `FT232R USB UART`.
    public var description: String
    /// How the port is attached.
    public var transport: Transport
    /// The USB vendor ID, e.g. `0x0403` for FTDI.
    public var usbVendorID: UInt16?
    /// The USB product ID, e.g. `0x6001` for an FT232R.
    public var usbProductID: UInt16?
    /// The USB manufacturer string.
    public var manufacturer: String?
    /// The USB product string.
    public var product: String?
    /// The USB serial number string.
    public var serialNumber: String?
    /// The USB bus number.
    public var usbBus: Int?
    /// The device's address on that USB bus.
    public var usbAddress: Int?
    /// Bluetooth MAC address, e.g. `00:11:22:33:44:55`.
    public var bluetoothAddress: String?
    /// Every `/dev/serial/by-id/*` and `/dev/serial/by-path/*` link resolving to
    /// ``name``, sorted (by-id first). These names stay stable across re-plugging.
    public var byIDLinks: [String]

    /// Creates a description of a port; everything but the name is optional.
    public init(
        name: String, description: String = "", transport: Transport = .native,
        usbVendorID: UInt16? = nil, usbProductID: UInt16? = nil, manufacturer: String? = nil,
        product: String? = nil, serialNumber: String? = nil, usbBus: Int? = nil, usbAddress: Int? = nil,
        bluetoothAddress: String? = nil, byIDLinks: [String] = []
    ) {
        self.name = name
        self.description = description
        self.transport = transport
        self.usbVendorID = usbVendorID
        self.usbProductID = usbProductID
        self.manufacturer = manufacturer
        self.product = product
        self.serialNumber = serialNumber
        self.usbBus = usbBus
        self.usbAddress = usbAddress
        self.bluetoothAddress = bluetoothAddress
        self.byIDLinks = byIDLinks
    }

    /// The USB ID as engineers write it, `VID:PID` in four lowercase hex digits each,
    /// e.g. `0403:6001`; nil when not a USB port.
    public var usbID: String? {
        guard let usbVendorID, let usbProductID else { return nil }
        return "\(Self.hexID(usbVendorID)):\(Self.hexID(usbProductID))"
    }

    /// The `--match` value that selects this port, `VID:PID[:SERIAL]` (e.g.
    /// `0403:6001:A1B2C3`); nil when not a USB port.
    public var matchValue: String? {
        usbID.map { id in serialNumber.map { "\(id):\($0)" } ?? id }
    }

    /// A USB vendor or product ID as four lowercase hex digits, e.g. `0403`.
    public static func hexID(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// The directories whose links ``byIDLinks`` collects.
    static let linkDirectories = ["/dev/serial/by-id", "/dev/serial/by-path"]

    /// Lists the serial ports present, sorted by name.
    ///
    /// Uses `sp_list_ports`, which walks `/sys/class/tty`; pseudo-terminals are not
    /// serial ports there and are not listed. An empty array is a normal answer (no
    /// adapters plugged in, or a container without `/sys/class/tty`).
    ///
    /// - Throws: ``SerialError/io(path:function:errno:message:)`` if libserialport
    ///   cannot enumerate the ports.
    public static func list() throws(SerialError) -> [SerialPortInfo] {
        var list: UnsafeMutablePointer<OpaquePointer?>?
        try check(sp_list_ports(&list), function: "sp_list_ports", path: "/sys/class/tty")
        guard let list else { return [] }
        defer { sp_free_port_list(list) }
        var ports: [SerialPortInfo] = []
        var index = 0
        while let port = list[index] {
            ports.append(info(for: port))
            index += 1
        }
        return linking(ports.sorted { $0.name < $1.name }, linkTargets: currentLinkTargets())
    }

    /// Fills in each port's ``byIDLinks`` from a map of link path → resolved node.
    ///
    /// Pure: `list()` passes the links found under ``linkDirectories``, tests pass a
    /// made-up map.
    ///
    /// - Parameters:
    ///   - ports: the ports, by node name.
    ///   - linkTargets: each link's path and the absolute node it resolves to.
    /// - Returns: `ports` in the same order, each with the links to its node, sorted.
    static func linking(_ ports: [SerialPortInfo], linkTargets: [String: String]) -> [SerialPortInfo] {
        var linksByNode: [String: [String]] = [:]
        for (link, node) in linkTargets { linksByNode[node, default: []].append(link) }
        return ports.map { port in
            var port = port
            port.byIDLinks = (linksByNode[port.name] ?? []).sorted()
            return port
        }
    }

    private static func info(for port: OpaquePointer) -> SerialPortInfo {
        var info = SerialPortInfo(
            name: string(sp_get_port_name(port)) ?? "", description: string(sp_get_port_description(port)) ?? "")
        switch sp_get_port_transport(port) {
        case SP_TRANSPORT_USB:
            info.transport = .usb
            var vendor: Int32 = 0
            var product: Int32 = 0
            if sp_get_port_usb_vid_pid(port, &vendor, &product) == SP_OK {
                info.usbVendorID = UInt16(exactly: vendor)
                info.usbProductID = UInt16(exactly: product)
            }
            var bus: Int32 = 0
            var address: Int32 = 0
            if sp_get_port_usb_bus_address(port, &bus, &address) == SP_OK {
                info.usbBus = Int(bus)
                info.usbAddress = Int(address)
            }
            info.manufacturer = string(sp_get_port_usb_manufacturer(port))
            info.product = string(sp_get_port_usb_product(port))
            info.serialNumber = string(sp_get_port_usb_serial(port))
        case SP_TRANSPORT_BLUETOOTH:
            info.transport = .bluetooth
            info.bluetoothAddress = string(sp_get_port_bluetooth_address(port))
        default:
            info.transport = .native
        }
        return info
    }

    /// The links under ``linkDirectories`` and the nodes they resolve to (`realpath`);
    /// dangling links are left out.
    private static func currentLinkTargets() -> [String: String] {
        var targets: [String: String] = [:]
        for directory in linkDirectories {
            let entries = FileSystem.entries(ofDirectory: directory) ?? []
            for entry in entries {
                let link = directory + "/" + entry
                guard let resolved = realpath(link, nil) else { continue }
                targets[link] = String(cString: resolved)
                free(resolved)
            }
        }
        return targets
    }

    /// A libserialport string (owned by the port), or nil for NULL or empty.
    private static func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer, pointer.pointee != 0 else { return nil }
        return String(cString: pointer)
    }
}
