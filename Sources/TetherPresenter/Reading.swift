import FoundationEssentials

/// One named value taken from a notification's `name=value` fields, e.g. `temp=22.87`
/// or `vout=-1.5e-3V`.
///
/// Only a notification that begins with a tag — `!` and a letter, as in
/// `!READING temp=22.87 hum=41.3` or `!ALARM temp_high temp=31.0` — carries readings
/// (`fields(in:at:units:)`): the mark that tether's simulator and many a device's
/// protocol give to unsolicited data. A log line never does, however many `=` it holds
/// (`Command line: console=ttyS0,115200 panic=-1`, `workingset: timestamp_bits=36`);
/// docs/JSON.md, "Types".
public struct Reading: Sendable, Equatable {
    /// The field name, e.g. `temp`.
    public var name: String
    /// The value as sent, unit included, e.g. `22.87` or `5.00V`.
    public var value: String
    /// The value as a number, when it is one: an integer, a decimal or an exponent form,
    /// optionally signed (`12`, `-0.5`, `.5`, `1.2e-3`), optionally followed by a unit.
    public var number: Double?
    /// The unit: the one written after the number (`V` in `5.00V`), else the one the
    /// device description gives for `name`, else `nil`.
    public var unit: String?
    /// When it was received.
    public var time: Date

    /// Creates a reading from the value as sent, parsing its number and unit;
    /// `describedUnit` is used when the value carries none.
    public init(name: String, value: String, time: Date, describedUnit: String? = nil) {
        self.name = name
        self.value = value
        self.time = time
        let parsed = Self.parseNumber(value)
        number = parsed?.number
        unit = parsed?.unit ?? describedUnit
    }

    /// The `name=value` fields of a notification line that begins with a tag (`!` and a
    /// letter), e.g. `temp=22.87` in `!READING temp=22.87 hum=41.3`; none for any other
    /// line. Fields are separated by spaces, tabs, `,` or `;`; names are letters,
    /// digits, `_`, `.` and `-`.
    static func fields(in text: String, at time: Date, units: [String: String]) -> [Reading] {
        guard isTagged(text) else { return [] }
        return text.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x2C || $0 == 0x3B || $0 == 0x09 }).compactMap {
            field in
            guard let equals = field.firstIndex(of: 0x3D), equals != field.startIndex,
                field.index(after: equals) != field.endIndex
            else { return nil }
            let name = String(Substring(field[..<equals]))
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || "_.-".contains($0) }) else { return nil }
            let value = String(Substring(field[field.index(after: equals)...]))
            return Reading(name: name, value: value, time: time, describedUnit: units[name])
        }
    }

    /// Whether `text` begins with `!` and an ASCII letter.
    static func isTagged(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        guard bytes.next() == UInt8(ascii: "!"), let letter = bytes.next() else { return false }
        return (letter | 0x20) >= UInt8(ascii: "a") && (letter | 0x20) <= UInt8(ascii: "z")
    }

    /// Splits `text` into a number and the unit after it: `[+-]` digits with an optional
    /// fraction and exponent (`e`/`E` and digits), then nothing or a unit that starts with
    /// a letter, `%`, `°`, `‰` or `µ`. `0x1F`, `12:30`, `1.2.3`, `inf`, `nan` and numbers
    /// too large for a `Double` (`1e999`) are not numbers.
    static func parseNumber(_ text: String) -> (number: Double, unit: String?)? {
        let bytes = text.utf8
        var index = bytes.startIndex
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func skipDigits() -> Int {
            var count = 0
            while index != bytes.endIndex, isDigit(bytes[index]) {
                index = bytes.index(after: index)
                count += 1
            }
            return count
        }
        func skip(_ accepted: UInt8...) -> Bool {
            guard index != bytes.endIndex, accepted.contains(bytes[index]) else { return false }
            index = bytes.index(after: index)
            return true
        }
        let hasPlus = index != bytes.endIndex && bytes[index] == UInt8(ascii: "+")
        _ = skip(UInt8(ascii: "+"), UInt8(ascii: "-"))
        var mantissa = skipDigits()
        if skip(UInt8(ascii: ".")) { mantissa += skipDigits() }
        guard mantissa > 0 else { return nil }
        let beforeExponent = index
        if skip(UInt8(ascii: "e"), UInt8(ascii: "E")) {
            _ = skip(UInt8(ascii: "+"), UInt8(ascii: "-"))
            if skipDigits() == 0 { index = beforeExponent }
        }
        let numberStart = hasPlus ? bytes.index(after: bytes.startIndex) : bytes.startIndex
        guard let number = Double(Substring(bytes[numberStart..<index])), number.isFinite else { return nil }
        guard index != bytes.endIndex else { return (number, nil) }
        let rest = text[index...]
        guard let first = rest.unicodeScalars.first else { return (number, nil) }
        let previous = bytes[bytes.index(before: index)]
        let isHex = (first == "x" || first == "X") && previous == UInt8(ascii: "0")
        guard !isHex, first.properties.isAlphabetic || "%°‰µ".unicodeScalars.contains(first) else { return nil }
        return (number, String(rest))
    }
}
