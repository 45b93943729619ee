import Foundation
import Testing

@testable import TetherModel

/// The `nmea` dialect (docs/DIALECTS.md, "`nmea`"): checksums, the common sentences'
/// values, proprietary sentences, commands with their checksum.
@Suite struct NMEADialectTests {
    /// 300 known fixes, 1500 sentences through the session in 61-byte reads: every
    /// sentence is a notification; the broken checksums, and only they, are invalid;
    /// every position, altitude, satellite count and speed is the fix's.
    @Test func aGeneratedLogGivesItsKnownFixes() throws {
        let log = NMEALog(fixes: 300)
        let dialect = NMEADialect()
        var harness = SessionHarness(dialect)
        let bytes = Array(log.text.utf8)
        for start in stride(from: 0, to: bytes.count, by: 61) {
            harness.receive(Array(bytes[start..<min(start + 61, bytes.count)]), at: start / 61)
        }
        let lines = harness.notifications
        #expect(lines.map(\.text) == log.sentences)
        var invalid: Set<Int> = []
        for (index, line) in lines.enumerated() {
            switch dialect.fields(of: line) {
            case .invalid(let reason)?:
                invalid.insert(index)
                #expect(reason.hasPrefix("checksum "))
            case .values(let fields)?:
                let values = Dictionary(fields.map { ($0.name, $0.value) }) { $1 }
                let fix = log.fixes[index / 5]
                if let lat = values["lat"].flatMap(Double.init), let lon = values["lon"].flatMap(Double.init) {
                    #expect(abs(lat - NMEALog.rounded(fix.latitude)) < 1e-6, "\(line.text)")
                    #expect(abs(lon - NMEALog.rounded(fix.longitude)) < 1e-6, "\(line.text)")
                }
                if line.text.dropFirst(3).hasPrefix("GGA") {
                    #expect(values["sats"].flatMap(Int.init) == fix.satellites)
                    #expect(values["fix"].flatMap(Int.init) == fix.quality)
                    #expect(values["alt"].flatMap(Double.init).map { abs($0 - fix.altitude) < 0.051 } == true)
                }
                if line.text.dropFirst(3).hasPrefix("RMC") {
                    #expect(values["speed"].flatMap(Double.init).map { abs($0 - fix.speed) < 0.051 } == true)
                    #expect(values["date"]?.hasPrefix("20") == true)
                }
            case nil:
                Issue.record("not read as a sentence: \(line.text)")
            }
        }
        #expect(invalid == log.broken)
        #expect(invalid.count > 200)
    }

    /// Checksums: right, wrong, missing, lower-case hex; any talker.
    @Test func checksumsAreVerified() {
        let dialect = NMEADialect()
        let good = Line("$GNGGA,123519.00,5231.2000,N,01324.6000,E,1,08,0.9,34.5,M,39.1,M,,*42")
        guard case .values(let fields)? = dialect.fields(of: good) else {
            Issue.record("not read")
            return
        }
        #expect(fields.first { $0.name == "lat" } == LineField(name: "lat", value: "52.5200000", unit: "°"))
        #expect(fields.first { $0.name == "lon" }?.value == "13.4100000")
        #expect(fields.first { $0.name == "alt" } == LineField(name: "alt", value: "34.5", unit: "m"))
        #expect(
            dialect.fields(of: Line("$GNGGA,123519.00,5231.2000,N,01324.6000,E,1,08,0.9,34.5,M,39.1,M,,*43"))
                == .invalid(reason: "checksum 43, computed 42"))
        #expect(dialect.fields(of: Line("$GPGLL,5231.2000,N,01324.6000,E")) == .invalid(reason: "no checksum (*hh)"))
        #expect(
            dialect.fields(of: Line("$GPGLL,5231.2000,N,01324.6000,E*3c"))
                == .invalid(reason: "checksum 3C, computed 6E"))
        #expect(dialect.fields(of: Line("hello")) == nil)
        #expect(
            dialect.fields(of: Line("$GPRMC,,V,,,,,,,,,,N*53")) == .values([LineField(name: "status", value: "V")]))
    }

    /// Proprietary sentences pass through: valid, no values.
    @Test func proprietarySentencesPassThrough() {
        let dialect = NMEADialect()
        #expect(dialect.fields(of: Line("$PMTK001,220,3*30")) == .values([]))
        #expect(dialect.fields(of: Line("$PUBX,00,123519.00*3C")) == .values([]))
    }

    /// Commands: the checksum is added; a PMTK command waits for its acknowledgement.
    @Test func commandsGetTheirChecksumAndAcknowledgement() {
        let dialect = NMEADialect()
        #expect(dialect.encode("$PMTK220,1000") == Array("$PMTK220,1000*1F\r\n".utf8))
        #expect(dialect.encode("$PMTK220,1000*1F") == Array("$PMTK220,1000*1F\r\n".utf8))
        #expect(dialect.encode("$PUBX,00") == Array("$PUBX,00*33\r\n".utf8))
        var harness = SessionHarness(dialect)
        harness.enqueue("$PMTK220,1000")
        harness.receive("$GNGLL,5231.2000,N,01324.6000,E,123519.00,A,A*7F\r\n$PMTK001,220,3*30\r\n", at: 5)
        #expect(harness.replyLines == [["$PMTK001,220,3*30"]])
        #expect(harness.notificationTexts.count == 1)
        harness.enqueue("$PMTK251,9600", at: 10)
        harness.receive("$PMTK001,251,1*34\r\n", at: 15)
        #expect(harness.replies.last?.reply.isError == true)
        #expect(harness.replies.last?.reply.errorDescription == "unsupported packet type")
    }

    /// Noise before a sentence is split off; the sentence is read.
    @Test func noiseBeforeASentenceIsSplitOff() {
        var harness = SessionHarness(NMEADialect())
        harness.receive([0xFF, 0x00] + Array("$PMTK001,220,3*30\r\n".utf8), at: 0)
        #expect(harness.notifications.map(\.bytes) == [[0xFF, 0x00], Array("$PMTK001,220,3*30".utf8)])
    }

    static let pynmea2 = Self.python("import pynmea2") == 0

    /// The same log read by pynmea2 (Debian's `python3-nmea2`, installed by
    /// `scripts/install-deps --test`): the same sentences valid, the same positions,
    /// altitudes, satellites, fix qualities, speeds and courses.
    @Test(.enabled(if: pynmea2, "pynmea2 is not importable: install python3-nmea2 (scripts/install-deps --test)"))
    func pynmea2ReadsTheSameValues() throws {
        let log = NMEALog(fixes: 300)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-nmea-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("log.nmea").path
        try log.text.write(toFile: path, atomically: true, encoding: .utf8)
        let script = """
            import json, sys, pynmea2
            for line in open(sys.argv[1]):
                try:
                    s = pynmea2.parse(line.strip(), check=True)
                except pynmea2.ParseError:
                    print(json.dumps(None)); continue
                v = {}
                t = s.sentence_type
                if t in ("GGA", "RMC", "GLL"):
                    v["lat"] = s.latitude; v["lon"] = s.longitude
                if t == "GGA":
                    v["alt"] = s.altitude; v["sats"] = int(s.num_sats); v["fix"] = int(s.gps_qual)
                    v["hdop"] = float(s.horizontal_dil)
                if t == "RMC":
                    v["speed"] = s.spd_over_grnd; v["course"] = s.true_course
                if t == "VTG":
                    v["speed_kmh"] = float(s.spd_over_grnd_kmph)
                print(json.dumps(v))
            """
        let output = folder.appendingPathComponent("out.json")
        #expect(Self.python(script, arguments: [path], output: output) == 0)
        let answers = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        #expect(answers.count == log.sentences.count)
        let dialect = NMEADialect()
        for (sentence, answer) in zip(log.sentences, answers) {
            let theirs = try JSONSerialization.jsonObject(with: Data(answer.utf8), options: .fragmentsAllowed)
            switch dialect.fields(of: Line(sentence)) {
            case .invalid?:
                #expect(theirs is NSNull, "\(sentence)")
            case .values(let fields)?:
                guard let theirs = theirs as? [String: Double] else {
                    Issue.record("pynmea2 refused \(sentence)")
                    continue
                }
                let ours = Dictionary(fields.compactMap { field in Double(field.value).map { (field.name, $0) } }) {
                    $1
                }
                for (name, value) in theirs {
                    #expect(ours[name].map { abs($0 - value) < 1e-6 } == true, "\(name) of \(sentence)")
                }
            case nil:
                Issue.record("not read: \(sentence)")
            }
        }
    }

    /// Runs `/usr/bin/python3 -c script`; its exit status (127 when it cannot start).
    static func python(_ script: String, arguments: [String] = [], output: URL? = nil) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script] + arguments
        process.standardError = FileHandle.nullDevice
        if let output {
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            process.standardOutput = try? FileHandle(forWritingTo: output)
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        do { try process.run() } catch { return 127 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
