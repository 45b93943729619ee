import TetherPresenter

extension TextView: PortListView {
    public func render(ports: [PortSummary]) {
        guard !ports.isEmpty else {
            diagnostics.write("No serial ports found.\n")
            return
        }
        for port in ports {
            var header = Self.plain(port.name)
            if let description = port.description { header += "  " + Self.escaped(description) }
            output.write(header + "\n")
            var details: [(String, String)] = [("transport", port.transport)]
            if let match = port.matchValue { details.append(("match", match)) }
            if let manufacturer = port.manufacturer { details.append(("manufacturer", manufacturer)) }
            if let product = port.product { details.append(("product", product)) }
            if let serial = port.serialNumber { details.append(("serial", serial)) }
            details += port.links.map { ("link", $0) }
            for (key, value) in details {
                output.write(
                    "  " + key + String(repeating: " ", count: max(0, 13 - key.count))
                        + Self.escaped(value) + "\n")
            }
        }
    }

    /// `Named devices:` then one line each: name, place, presence, description.
    public func render(namedDevices: [NamedDeviceSummary]) {
        guard !namedDevices.isEmpty else { return }
        output.write("Named devices:\n")
        let width = namedDevices.map(\.name.count).max() ?? 0
        for device in namedDevices {
            var line = "  " + Self.escaped(device.name) + String(repeating: " ", count: width - device.name.count)
            line += "  " + Self.escaped(device.place) + "  (" + device.presence.rawValue + ")"
            if let description = device.description { line += "  " + Self.escaped(description) }
            output.write(line + "\n")
        }
    }
}
