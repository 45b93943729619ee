import TetherPresenter

extension JSONView: ModemLineView {
    /// One `lines` object: `{"v":1,"type":"lines","time":…,"port":…,"emulated":…,
    /// "dtr":…,"rts":…,"cts":…,"dsr":…,"dcd":…,"ri":…}`, each line a Boolean.
    public func render(modemLines status: ModemLineStatus) {
        var object: [String: JSONValue] = [
            "v": .int(Self.schemaVersion), "type": "lines", "time": .string(Self.timestamp(status.time)),
            "port": .string(status.port), "emulated": .bool(status.isEmulated),
        ]
        for line in ModemLineStatus.Line.allCases { object[line.rawValue] = .bool(status.asserted.contains(line)) }
        write(object)
    }
}
