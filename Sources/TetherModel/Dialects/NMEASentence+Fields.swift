extension NMEASentence {
    /// The sentence types whose fields are read (``fields``).
    public static let readTypes: Set<String> = ["GGA", "RMC", "GSA", "GSV", "VTG", "GLL"]

    /// The values of a GGA, RMC, GSA, GSV, VTG or GLL sentence, of any talker, named
    /// the same whatever the sentence (NMEA 0183 v4.11, §6.3); empty fields give none:
    ///
    /// | name | unit | from |
    /// |---|---|---|
    /// | `utc` | — | GGA, RMC, GLL: `hh:mm:ss[.ss]` |
    /// | `date` | — | RMC: `20yy-mm-dd` |
    /// | `lat`, `lon` | ° | GGA, RMC, GLL: decimal degrees, south and west negative (7 decimals) |
    /// | `fix` | — | GGA: fix quality (0 none, 1 GPS, 2 DGPS, 4 RTK fixed, 5 RTK float, 6 dead reckoning…) |
    /// | `sats` | — | GGA: satellites used |
    /// | `hdop` | — | GGA, GSA |
    /// | `alt` | m | GGA: altitude above mean sea level |
    /// | `status` | — | RMC, GLL: `A` valid, `V` void |
    /// | `speed` | kn | RMC, VTG: speed over ground |
    /// | `speed_kmh` | km/h | VTG |
    /// | `course` | ° | RMC, VTG: course over ground, true |
    /// | `fix_type` | — | GSA: 1 none, 2 2D, 3 3D |
    /// | `pdop`, `vdop` | — | GSA |
    /// | `sats_in_view` | — | GSV |
    ///
    /// Other sentences (proprietary `$PUBX`, `$PMTK`, and the rest) have none.
    public var values: [LineField] {
        var values: [LineField] = []
        func field(_ index: Int) -> String? {
            index < fields.count && !fields[index].isEmpty ? fields[index] : nil
        }
        func add(_ name: String, _ index: Int, unit: String? = nil) {
            if let value = field(index) { values.append(LineField(name: name, value: value, unit: unit)) }
        }
        func addTime(_ index: Int) {
            guard let text = field(index), text.count >= 6, text.prefix(6).allSatisfy(\.isNumber) else { return }
            let digits = Array(text)
            let time = "\(String(digits[0..<2])):\(String(digits[2..<4])):\(String(digits[4...]))"
            values.append(LineField(name: "utc", value: time))
        }
        func addPosition(_ latitude: Int) {
            if let lat = Self.degrees(field(latitude), hemisphere: field(latitude + 1), degreeDigits: 2) {
                values.append(LineField(name: "lat", value: lat, unit: "°"))
            }
            if let lon = Self.degrees(field(latitude + 2), hemisphere: field(latitude + 3), degreeDigits: 3) {
                values.append(LineField(name: "lon", value: lon, unit: "°"))
            }
        }
        guard !isProprietary else { return [] }
        switch type {
        case "GGA":
            addTime(0)
            addPosition(1)
            add("fix", 5)
            add("sats", 6)
            add("hdop", 7)
            add("alt", 8, unit: "m")
        case "RMC":
            addTime(0)
            add("status", 1)
            addPosition(2)
            add("speed", 6, unit: "kn")
            add("course", 7, unit: "°")
            if let date = field(8), date.count == 6, date.allSatisfy(\.isNumber) {
                let digits = Array(date)
                let value = "20\(String(digits[4...]))-\(String(digits[2..<4]))-\(String(digits[0..<2]))"
                values.append(LineField(name: "date", value: value))
            }
        case "GSA":
            add("fix_type", 1)
            add("pdop", 14)
            add("hdop", 15)
            add("vdop", 16)
        case "GSV":
            add("sats_in_view", 2)
        case "VTG":
            add("course", 0, unit: "°")
            add("speed", 4, unit: "kn")
            add("speed_kmh", 6, unit: "km/h")
        case "GLL":
            addPosition(0)
            addTime(4)
            add("status", 5)
        default:
            break
        }
        return values
    }

    /// `ddmm.mmmm` (or `dddmm.mmmm`) and `N`/`S`/`E`/`W` as signed decimal degrees with
    /// 7 decimals, or `nil` when either is missing or malformed.
    static func degrees(_ text: String?, hemisphere: String?, degreeDigits: Int) -> String? {
        guard let text, let hemisphere, ["N", "S", "E", "W"].contains(hemisphere), text.count > degreeDigits + 1,
            let whole = Double(text.prefix(degreeDigits)), let minutes = Double(text.dropFirst(degreeDigits)),
            minutes < 60
        else { return nil }
        let value = whole + minutes / 60
        return fixed(hemisphere == "S" || hemisphere == "W" ? -value : value, decimals: 7)
    }

    /// `value` with exactly `decimals` decimals, rounded (`-33.8568000`).
    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = (scaled / scale).rounded(.towardZero)
        let fraction = String(Int(scaled - whole * scale))
        let sign = value < 0 && scaled > 0 ? "-" : ""
        return sign + String(Int(whole)) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
