import TetherPresenter

extension JSONView: PortListView {
    /// One object per port: `{"v":1,"type":"port","name":…,"transport":…,"vid":…,"pid":…,
    /// "manufacturer":…,"product":…,"serial":…,"description":…,"links":[…],"match":…}`;
    /// fields the port lacks are `null`.
    public func render(ports: [PortSummary]) {
        for port in ports {
            func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
            write([
                "v": .int(Self.schemaVersion), "type": "port", "name": .string(port.name),
                "description": optional(port.description), "transport": .string(port.transport),
                "vid": optional(port.vendorID), "pid": optional(port.productID),
                "manufacturer": optional(port.manufacturer), "product": optional(port.product),
                "serial": optional(port.serialNumber), "links": .array(port.links.map(JSONValue.string)),
                "match": optional(port.matchValue),
            ])
        }
    }

    /// One object per named device: `{"v":1,"type":"named_device","name":…,"place":…,
    /// "presence":"present"|"absent"|"remote"|"simulator","description":…,"file":…}`.
    public func render(namedDevices: [NamedDeviceSummary]) {
        for device in namedDevices {
            write([
                "v": .int(Self.schemaVersion), "type": "named_device", "name": .string(device.name),
                "place": .string(device.place), "presence": .string(device.presence.rawValue),
                "description": device.description.map(JSONValue.string) ?? .null, "file": .string(device.file),
            ])
        }
    }
}
