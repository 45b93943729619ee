import TetherPresenter

extension JSONView: TransferView {
    /// One `transfer` object: `{"v":1,"type":"transfer","event":"start"|"progress"|"done"|"failed",
    /// "time":…,"port":…,"direction":"send"|"receive","protocol":…,"file":…,"bytes":…,
    /// "total":…,"retries":…,"files":…,"elapsed_ms":…,"rate":…}`, with `reason` when
    /// failed (docs/JSON.md, "Transfers").
    public func render(transfer status: TransferStatus) {
        var object: [String: JSONValue] = [
            "v": .int(Self.schemaVersion), "type": "transfer", "time": .string(Self.timestamp(status.time)),
            "port": .string(status.port), "direction": .string(status.direction),
            "protocol": .string(status.protocolName), "file": status.file.map(JSONValue.string) ?? .null,
            "bytes": .int(status.bytes), "total": status.total.map(JSONValue.int) ?? .null,
            "retries": .int(status.retries), "files": .int(status.files),
            "elapsed_ms": .int(Int(status.elapsed.milliseconds)), "rate": .int(Int(status.rate.rounded())),
        ]
        switch status.stage {
        case .start: object["event"] = "start"
        case .progress: object["event"] = "progress"
        case .done: object["event"] = "done"
        case .failed(let reason):
            object["event"] = "failed"
            object["reason"] = .string(reason)
        }
        write(object)
    }
}
