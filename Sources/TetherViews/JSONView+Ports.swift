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
}
