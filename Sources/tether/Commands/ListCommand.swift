import TetherCommandLine
import TetherLibC
import TetherPresenter
import TetherSerial
import TetherViews

/// `tether list`: the serial ports on this machine.
enum ListCommand: Command {
    static let spec = CommandSpec(
        program: "tether", name: "list",
        abstract: "List serial ports with their USB identity and stable links.",
        discussion: """
            Shows each port's node, description, USB vendor and product ID, manufacturer,
            product, serial number and its /dev/serial/by-id links: what you need to
            open it by a stable name.
            """,
        options: [ConnectionOptions.format(showing: .portList).declaration]
    )

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        if let extra = arguments.positionals.first { throw UsageError("Unexpected argument \(Quoted(extra))") }
        let format = arguments[ConnectionOptions.format]
        let view: any PortListView
        do throws(UnsupportedFormat) {
            view = try format.make(.portList)
        } catch {
            throw UsageError(error.description)
        }
        let ports: [SerialPortInfo]
        do {
            ports = try SerialPortInfo.list()
        } catch {
            throw CommandFailure(error)
        }
        view.render(ports: ports.map(PortSummary.init))
        return .success
    }
}

extension PortSummary {
    /// The listing entry for a port found by the transport.
    init(_ info: SerialPortInfo) {
        self.init(
            name: info.name, description: info.description, transport: info.transport.rawValue,
            vendorID: info.usbVendorID.map(SerialPortInfo.hexID),
            productID: info.usbProductID.map(SerialPortInfo.hexID),
            manufacturer: info.manufacturer, product: info.product, serialNumber: info.serialNumber,
            links: info.byIDLinks)
    }
}
