import TetherLibC

/// Picks a port from a listing by what it is rather than where it is plugged in:
/// the argument of `--match`.
///
/// Forms:
/// - `VID:PID` or `VID:PID:SERIAL`: USB vendor and product ID in hexadecimal (1–4
///   digits each, e.g. `0403:6001`), optionally with the exact USB serial number;
/// - anything else: a case-insensitive substring of the port's USB product,
///   manufacturer or description (e.g. `CP2102`, `FTDI`).
public enum PortMatch: Sendable, Equatable, CustomStringConvertible {
    /// Matches USB ports with this vendor and product ID, and serial number if given.
    case usbID(vendorID: UInt16, productID: UInt16, serialNumber: String?)
    /// Matches ports whose product, manufacturer or description contains this text,
    /// ignoring case.
    case text(String)

    /// Why a `--match` value was rejected.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The value as given.
        public let input: String
        /// What is wrong with it.
        public let reason: String

        public var description: String {
            "invalid port match \(Quoted(input)): \(reason) (expected VID:PID[:SERIAL] in hexadecimal, "
                + "e.g. 0403:6001, or part of the product or manufacturer name)"
        }
    }

    /// Parses a `--match` value.
    ///
    /// A value containing `:` whose first field is 1–4 hexadecimal digits is read as
    /// `VID:PID[:SERIAL]` and must be well-formed; any other non-empty value is text.
    ///
    /// - Throws: ``ParseError`` for an empty value, a malformed product ID or an
    ///   empty serial number.
    public init(parsing input: String) throws(ParseError) {
        let value = input.trimmingWhitespace()
        guard !value.isEmpty else { throw ParseError(input: input, reason: "it is empty") }
        let fields = value.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count >= 2, let vendorID = Self.hexID(fields[0]) else {
            self = .text(value)
            return
        }
        guard let productID = Self.hexID(fields[1]) else {
            throw ParseError(input: input, reason: "\(Quoted(fields[1])) is not a USB product ID (1 to 4 hex digits)")
        }
        var serialNumber: String?
        if fields.count == 3 {
            guard !fields[2].isEmpty else {
                throw ParseError(input: input, reason: "the serial number after the second ':' is empty")
            }
            serialNumber = String(fields[2])
        }
        self = .usbID(vendorID: vendorID, productID: productID, serialNumber: serialNumber)
    }

    /// Whether `info` is a port this match selects.
    public func matches(_ info: SerialPortInfo) -> Bool {
        switch self {
        case .usbID(let vendorID, let productID, let serialNumber):
            return info.usbVendorID == vendorID && info.usbProductID == productID
                && (serialNumber == nil || info.serialNumber == serialNumber)
        case .text(let text):
            let needle = text.lowercased()
            return [info.product, info.manufacturer, info.description].contains { field in
                field?.lowercased().contains(needle) ?? false
            }
        }
    }

    /// The match in `--match` syntax, e.g. `0403:6001:A50285BI` or `CP2102`.
    public var description: String {
        switch self {
        case .usbID(let vendorID, let productID, let serialNumber):
            let id = "\(SerialPortInfo.hexID(vendorID)):\(SerialPortInfo.hexID(productID))"
            return serialNumber.map { "\(id):\($0)" } ?? id
        case .text(let text):
            return text
        }
    }

    private static func hexID(_ field: Substring) -> UInt16? {
        guard (1...4).contains(field.count), field.allSatisfy(\.isHexDigit) else { return nil }
        return UInt16(field, radix: 16)
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
