/// One serial port in a listing, as views show it (`tether list`).
public struct PortSummary: Sendable, Equatable {
    /// The device node, e.g. `/dev/ttyUSB0`.
    public var name: String
    /// The driver's description, e.g. `FT232R USB UART`.
    public var description: String?
    /// `usb`, `native`, `bluetooth` or `unknown`.
    public var transport: String
    /// USB vendor and product IDs as 4 hex digits each, e.g. `0403`, `6001`.
    public var vendorID: String?
    /// See ``vendorID``.
    public var productID: String?
    /// USB manufacturer string.
    public var manufacturer: String?
    /// USB product string.
    public var product: String?
    /// USB serial number string.
    public var serialNumber: String?
    /// The `/dev/serial/by-id` and `/dev/serial/by-path` links to the node.
    public var links: [String]

    /// Creates a summary.
    public init(
        name: String, description: String? = nil, transport: String, vendorID: String? = nil,
        productID: String? = nil, manufacturer: String? = nil, product: String? = nil,
        serialNumber: String? = nil, links: [String] = []
    ) {
        self.name = name
        self.description = description
        self.transport = transport
        self.vendorID = vendorID
        self.productID = productID
        self.manufacturer = manufacturer
        self.product = product
        self.serialNumber = serialNumber
        self.links = links
    }

    /// The `--match` value that selects this port, e.g. `0403:6001:A1B2C3`, when it
    /// is a USB port.
    public var matchValue: String? {
        guard let vendorID, let productID else { return nil }
        return [vendorID, productID, serialNumber].compactMap { $0 }.joined(separator: ":")
    }
}

/// A view that can show a port listing.
public protocol PortListView: Sendable {
    /// Shows every port (an empty list says so).
    func render(ports: [PortSummary])
    /// Shows the named devices of the configuration files, after the ports (an empty
    /// list shows nothing).
    func render(namedDevices: [NamedDeviceSummary])
}
