extension DeviceProfile {
    /// The unit of each reading the device's notifications carry, by field name: a
    /// notification sending `temp={temperature}` gives `temp` the unit of the property
    /// `temperature` (`°C`). Fields whose property has no unit are left out.
    public var readingUnits: [String: String] {
        var units: [String: String] = [:]
        for template in notifications.flatMap(\.send) {
            for (before, piece) in zip(template.pieces, template.pieces.dropFirst()) {
                guard case .text(let text) = before, text.hasSuffix("="), case .field(let property, _) = piece,
                    let unit = properties.first(where: { $0.name == property })?.unit
                else { continue }
                let name = text.dropLast().split(whereSeparator: { " ,;\t".contains($0) }).last.map(String.init)
                if let name, !name.isEmpty { units[name] = unit }
            }
        }
        return units
    }
}
