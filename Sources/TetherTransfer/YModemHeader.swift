/// YMODEM's block 0: `name NUL size [mtime [mode]] NUL`, padded with NUL — the size in
/// decimal bytes, the modification time (seconds since 1970) and the Unix mode in
/// octal, separated by spaces (a sender may add more fields, which are ignored). A
/// block 0 whose name is empty ends the batch.
public enum YModemHeader: Sendable, Equatable {
    /// A file follows.
    case file(name: String, size: Int?, modificationTime: Int?, mode: Int?)
    /// The batch is over.
    case endOfBatch

    /// Block 0's data for `file` (128 bytes, or 1024 when a long name needs them), or
    /// the empty header that ends the batch for `nil`.
    public static func data(for file: TransferFile?) -> [UInt8] {
        guard let file else { return Array(repeating: 0, count: Block.shortSize) }
        var fields = String(file.data.count)
        if let time = file.modificationTime {
            fields += " " + String(time, radix: 8)
            if let mode = file.mode { fields += " " + String(mode, radix: 8) }
        }
        let text = Array((file.name ?? "file").utf8) + [0] + Array(fields.utf8) + [0]
        let size = text.count <= Block.shortSize ? Block.shortSize : Block.longSize
        return Block(number: 0, data: text.prefix(size)[...], size: size, padding: 0).data
    }

    /// Reads block 0's data; `nil` when it is not a header (no NUL after the name, a
    /// size that is not a number, a name that is only a folder).
    ///
    /// A name with folders keeps only its last component (`../../etc/passwd` names
    /// `passwd`), so a received file is written where the receiver asked.
    public static func parse(_ data: [UInt8]) -> YModemHeader? {
        guard let first = data.first else { return nil }
        if first == 0 { return .endOfBatch }
        guard let nameEnd = data.firstIndex(of: 0) else { return nil }
        let path = String(decoding: data[..<nameEnd], as: UTF8.self)
        guard let name = path.split(separator: "/").last.map(String.init), name != ".", name != ".." else {
            return nil
        }
        let rest = data[(nameEnd + 1)...]
        let fieldsEnd = rest.firstIndex(of: 0) ?? rest.endIndex
        let fields = String(decoding: rest[..<fieldsEnd], as: UTF8.self).split(separator: " ")
        var size: Int?
        if let first = fields.first {
            guard let value = Int(first), value >= 0 else { return nil }
            size = value
        }
        let time = fields.count > 1 ? Int(fields[1], radix: 8) : nil
        let mode = fields.count > 2 ? Int(fields[2], radix: 8) : nil
        return .file(name: name, size: size, modificationTime: time, mode: mode)
    }
}
