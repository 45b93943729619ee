import FoundationEssentials
import TetherPresenter

extension JSONView {
    /// Whether a notification's record is written straight into bytes, with its keys
    /// in sorted order and no dictionary: its line is plain — all bytes below 0x80,
    /// nothing removed, no payload — and holds no readings, as the lines of a fast
    /// device are. The bytes are those ``JSONWriter`` writes for the object
    /// ``fields(for:)`` gives (`JSONWriterDifferentialTests` checks both against
    /// `JSONEncoder`); any other notification takes that general path.
    static func isPlainNotification(_ line: ViewLine, readings: [Reading]) -> Bool {
        readings.isEmpty && line.exactBytes == nil && line.payloadRange == nil && line.bytes.allSatisfy { $0 < 0x80 }
    }

    /// Appends the record of a plain notification (``isPlainNotification(_:readings:)``)
    /// to `output`, its line end included.
    static func appendPlainNotification(
        _ line: ViewLine, time: Date, port: String, device: String?, to output: inout [UInt8]
    ) {
        output.append(UInt8(ascii: "{"))
        if let device {
            output.append(contentsOf: #""device":"#.utf8)
            JSONWriter.appendString(device, to: &output)
            output.append(UInt8(ascii: ","))
        }
        output.append(contentsOf: #""line":"#.utf8)
        line.bytes.withUnsafeBufferPointer { JSONWriter.appendString(utf8: $0, to: &output) }
        if line.ending != .terminated {
            output.append(contentsOf: #","line_ending":"#.utf8)
            JSONWriter.appendString(line.ending.rawValue, to: &output)
        }
        output.append(contentsOf: #","port":"#.utf8)
        JSONWriter.appendString(port, to: &output)
        output.append(contentsOf: #","time":""#.utf8)
        ISO8601Timestamp.append(time, to: &output)
        output.append(contentsOf: #"","type":"notification","v":"#.utf8)
        output.append(contentsOf: String(schemaVersion).utf8)
        output.append(contentsOf: "}\n".utf8)
    }
}
