import TetherSerial

extension DeviceEvent {
    /// The events that say a port is open: the one `opened` makes from the settings
    /// `report` says the port has (else `settings`, what the device was asked for), then
    /// a `settingMismatch` for each requested setting it does not have and an `error`
    /// for each other problem of the open.
    ///
    /// What a device publishes when it starts or reconnects, and what a command shows
    /// for a port it closes at once because a setting differs (`--strict-settings`).
    public static func opened(
        _ report: SettingsReport, settings: String, as opened: (String) -> Kind
    ) -> [DeviceEvent] {
        [DeviceEvent(kind: opened(report.actual?.summary ?? settings))]
            + report.mismatches.map {
                DeviceEvent(kind: .settingMismatch(setting: $0.setting, requested: $0.requested, actual: $0.actual))
            }
            + report.warnings.map { DeviceEvent(kind: .error($0)) }
    }
}
