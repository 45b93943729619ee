import Foundation

/// One named value taken from a notification's `name=value` fields, e.g. `temp=22.87`
/// or `vout=-1.5e-3V`.
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

    /// The `name=value` fields of a notification line, e.g. `temp=22.87` in
    /// `!READING temp=22.87 hum=41.3`. Fields are separated by spaces, tabs, `,` or `;`;
    /// names are letters, digits, `_`, `.` and `-`.
    static func fields(in text: String, at time: Date, units: [String: String]) -> [Reading] {
        text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ";" || $0 == "\t" }).compactMap { field in
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            let name = String(parts[0])
            let value = String(parts[1])
            guard !name.isEmpty, !value.isEmpty,
                name.allSatisfy({ $0.isLetter || $0.isNumber || "_.-".contains($0) })
            else { return nil }
            return Reading(name: name, value: value, time: time, describedUnit: units[name])
        }
    }

    /// Splits `text` into a number and the unit after it: `[+-]` digits with an optional
    /// fraction and exponent (`e`/`E` and digits), then nothing or a unit that starts with
    /// a letter, `%`, `°`, `‰` or `µ`. `0x1F`, `12:30`, `1.2.3`, `inf`, `nan` and numbers
    /// too large for a `Double` (`1e999`) are not numbers.
    static func parseNumber(_ text: String) -> (number: Double, unit: String?)? {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func digits() -> Int {
            let start = index
            while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
            return index - start
        }
        if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
        var mantissa = digits()
        if index < scalars.count, scalars[index] == "." {
            index += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return nil }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            let mark = index
            index += 1
            if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
            if digits() == 0 { index = mark }
        }
        var numberText = String(String.UnicodeScalarView(scalars[..<index]))
        if numberText.hasPrefix("+") { numberText.removeFirst() }
        guard let number = Double(numberText), number.isFinite else { return nil }
        guard index < scalars.count else { return (number, nil) }
        let first = scalars[index]
        let isHex = (first == "x" || first == "X") && scalars[..<index].last == "0"
        guard !isHex, first.properties.isAlphabetic || "%°‰µ".unicodeScalars.contains(first) else { return nil }
        return (number, String(String.UnicodeScalarView(scalars[index...])))
    }
}
