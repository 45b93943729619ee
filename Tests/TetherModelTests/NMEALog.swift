@testable import TetherModel

/// A generated NMEA 0183 log with known fixes: each fix as GGA, RMC, GSA, VTG and GLL
/// of a changing talker, every seventh sentence with its checksum broken.
struct NMEALog {
    struct Fix {
        var latitude: Double
        var longitude: Double
        var altitude: Double
        var satellites: Int
        var quality: Int
        var hdop: Double
        var speed: Double
        var course: Double
    }

    private(set) var fixes: [Fix] = []
    /// The sentences, without line ends, in order.
    private(set) var sentences: [String] = []
    /// Which of ``sentences`` have a broken checksum.
    private(set) var broken: Set<Int> = []

    init(fixes count: Int) {
        let talkers = ["GP", "GN", "GL", "GA", "BD"]
        for index in 0..<count {
            let fix = Fix(
                latitude: -60 + Double(index) * 0.4173, longitude: -170 + Double(index) * 1.0931,
                altitude: Double(index % 90) * 10.5 - 20, satellites: 4 + index % 9, quality: [1, 2, 4, 5][index % 4],
                hdop: 0.6 + Double(index % 15) / 10, speed: Double(index % 40) * 0.7, course: Double(index * 13 % 360))
            fixes.append(fix)
            let talker = talkers[index % talkers.count]
            let time =
                String(format2: 10 + index / 3600 % 14) + String(format2: index / 60 % 60)
                + String(format2: index % 60) + ".00"
            let lat = Self.coordinate(fix.latitude, degreeDigits: 2, hemispheres: ("N", "S"))
            let lon = Self.coordinate(fix.longitude, degreeDigits: 3, hemispheres: ("E", "W"))
            let fields = [
                "\(talker)GGA,\(time),\(lat),\(lon),\(fix.quality),\(String(format2: fix.satellites)),"
                    + "\(Self.oneDecimal(fix.hdop)),\(Self.oneDecimal(fix.altitude)),M,47.0,M,,",
                "\(talker)RMC,\(time),A,\(lat),\(lon),\(Self.oneDecimal(fix.speed)),\(Self.oneDecimal(fix.course)),"
                    + "\(String(format2: 1 + index % 28))1126,,,A",
                "\(talker)GSA,A,3,01,02,03,04,,,,,,,,,1.8,\(Self.oneDecimal(fix.hdop)),1.5",
                "\(talker)VTG,\(Self.oneDecimal(fix.course)),T,,M,\(Self.oneDecimal(fix.speed)),N,"
                    + "\(Self.oneDecimal(fix.speed * 1.852)),K,A",
                "\(talker)GLL,\(lat),\(lon),\(time),A,A",
            ]
            for body in fields {
                var sentence = "$" + body + "*" + NMEASentence.hex(NMEASentence.checksum(of: Array(body.utf8)))
                if sentences.count % 7 == 3 {
                    sentence = sentence.replacingFirst(",", with: ";")
                    broken.insert(sentences.count)
                }
                sentences.append(sentence)
            }
        }
    }

    /// The log as a receiver sends it: CR LF after each sentence.
    var text: String { sentences.map { $0 + "\r\n" }.joined() }

    /// `ddmm.mmmm,H` for signed decimal degrees.
    static func coordinate(_ value: Double, degreeDigits: Int, hemispheres: (String, String)) -> String {
        let magnitude = abs(value)
        let degrees = Int(magnitude)
        let minutes = (magnitude - Double(degrees)) * 60
        let minuteTenThousandths = Int((minutes * 10000).rounded())
        let padded = String(repeating: "0", count: max(0, degreeDigits - String(degrees).count)) + String(degrees)
        let whole = String(format2: minuteTenThousandths / 10000)
        let fraction = String(minuteTenThousandths % 10000)
        return padded + whole + "." + String(repeating: "0", count: 4 - fraction.count) + fraction + ","
            + (value < 0 ? hemispheres.1 : hemispheres.0)
    }

    /// The degrees the log's `ddmm.mmmm` gives back (minutes rounded to 4 decimals).
    static func rounded(_ value: Double) -> Double {
        let magnitude = abs(value)
        let degrees = Double(Int(magnitude))
        let minutes = ((magnitude - degrees) * 60 * 10000).rounded() / 10000
        return (degrees + minutes / 60) * (value < 0 ? -1 : 1)
    }

    static func oneDecimal(_ value: Double) -> String {
        NMEASentence.fixed(value, decimals: 1)
    }
}

extension String {
    /// Two digits, zero-padded.
    init(format2 value: Int) {
        self = value < 10 ? "0\(value)" : "\(value)"
    }

    /// The text with its first `target` replaced.
    func replacingFirst(_ target: Character, with replacement: Character) -> String {
        guard let index = firstIndex(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(index...index, with: String(replacement))
        return copy
    }
}
