import Foundation
import TetherSimulator

/// Fuzz target `profile`: profile loading and the simulated device it describes.
///
/// The input is a profile document (JSON), a NUL byte, then what a host sends, in
/// reads separated by NUL bytes, with time passing between them. Checked:
/// - loading never traps: a document is a profile or a ``ProfileError`` naming the
///   file ("fuzz.json: …");
/// - the device never traps, whatever it is sent and however values drift, count and
///   format (`%d` with 1e300 once did);
/// - after its notifications are served, none is due in the past.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let profile: DeviceProfile
    do {
        profile = try DeviceProfile(data: Array(parts[0]), file: "fuzz.json", defaultName: "fuzz")
    } catch {
        require(error.description.hasPrefix("fuzz.json: "), "a profile error without the file: \(error)")
        return 0
    }
    trace("loaded \(profile.name) (\(profile.dialect))")
    let device = ProfileDevice(profile: profile, seed: UInt64(size))
    var now = ContinuousClock.now
    _ = device.clientDidConnect(at: now)
    let reads = parts.count > 1 ? parts[1].split(separator: 0, omittingEmptySubsequences: false) : []
    for (index, read) in reads.prefix(64).enumerated() {
        let output = device.receive(Array(read), at: now)
        trace("sent \(Array(read)) → \(output)")
        now += .milliseconds(37 * (index % 7) + (index % 3 == 0 ? 60_000 : 0))
        var rounds = 0
        while let due = device.nextWakeUp, due <= now, rounds < 16 {
            _ = device.wakeUp(at: now)
            rounds += 1
            if let next = device.nextWakeUp { require(next > now || rounds < 16, "a notification due in the past") }
        }
    }
    device.clientDidDisconnect(at: now)
    return 0
}
