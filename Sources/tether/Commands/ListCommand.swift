import TetherCommandLine
import TetherConnection
import TetherDeviceSettings
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
            open it by a stable name. Then the named devices of the configuration
            files (docs/CONFIG.md) with whether each is here now: present, absent,
            remote (not looked for) or simulator.
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
        // A bad file or section is said after the listing, which shows the rest.
        let named = NamedDevices()
        let (entries, found) = named.names()
        var problems = found
        var devices: [NamedDeviceSummary] = []
        for entry in entries {
            do throws(UsageError) {
                if let device = try named.device(named: entry.name) {
                    devices.append(NamedDeviceSummary(device, ports: ports))
                }
            } catch {
                problems.append(error)
            }
        }
        view.render(namedDevices: devices)
        if let first = problems.first {
            throw UsageError(problems.dropFirst().reduce(first.message) { $0 + "; " + $1.message })
        }
        return .success
    }
}

extension NamedDeviceSummary {
    /// The listing entry for a named device, `ports` being the ports found.
    init(_ device: NamedDevice, ports: [SerialPortInfo]) {
        let place: String
        let presence: Presence
        switch device.place {
        case .port(let path):
            place = path
            if (try? PortAddress(parsing: path))?.isRemote == true {
                presence = .remote
            } else {
                presence = FileSystem.kind(atPath: path) == nil ? .absent : .present
            }
        case .match(let match):
            place = "match \(match)"
            presence = ports.contains(where: match.matches) ? .present : .absent
        case .simulator(let profile):
            place = "sim" + (profile.map { ":" + $0 } ?? "")
            presence = .simulator
        }
        self.init(
            name: device.name, place: place, presence: presence, description: device.description, file: device.file)
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
