import Foundation
import Testing
import TetherCommandLine
import TetherSerial

@testable import TetherDeviceSettings

/// The named devices' configuration (docs/CONFIG.md): INI read by inih, each section a
/// device, each mistake naming the file and the section.
@Suite struct NamedDeviceTests {
    static func parse(_ text: String) throws(UsageError) -> ConfigFile {
        try ConfigFile.parse(Array(text.utf8), file: "config")
    }

    static func device(_ text: String, _ name: String) throws(UsageError) -> NamedDevice? {
        try parse(text).section(name).map { section throws(UsageError) in
            try NamedDevice(section, file: "/home/u/.config/tether/config", home: "/home/u")
        }
    }

    static func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as UsageError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test func sectionsKeysRepeatsAndComments() throws {
        let file = try Self.parse(
            """
            # a comment
            ; another
            [lab-psu]
            port = /dev/ttyUSB0   ; the FTDI cable
            urc = ^A
            urc = ^B

            baud = 9600

            [modem]
            match=2c7c:0125
            """)
        #expect(file.sections.map(\.name) == ["lab-psu", "modem"])
        #expect(file.section("lab-psu")?.values == ["port": ["/dev/ttyUSB0"], "urc": ["^A", "^B"], "baud": ["9600"]])
        #expect(file.section("modem")?.values == ["match": ["2c7c:0125"]])
    }

    @Test func linesInihCannotReadAreNamed() throws {
        #expect(
            Self.message { _ = try Self.parse("[a]\nport = x\nnonsense\n") }
                == "config: line 3: expected '[name]', 'key = value' or a comment")
        #expect(Self.message { _ = try Self.parse("[a\nport = x\n") }?.hasPrefix("config: line 1: ") == true)
        #expect(
            Self.message { _ = try Self.parse("port = x\n[a]\n") }
                == "config: 'port' is outside any '[name]' section; put it under its device's name")
        #expect(
            Self.message { _ = try Self.parse("[a]\nport = x\u{0}\n") }
                == "config: line 2: a NUL byte; the configuration is text")
        // inih reads a longer line in pieces, each taken for a line.
        let long = "[a]\nport = /dev/" + String(repeating: "x", count: 300) + "\nbaud = 9600\n"
        #expect(Self.message { _ = try Self.parse(long) } == "config: line 2: 312 bytes; a line holds at most 198")
        let longest = "[a]\nurc = " + String(repeating: "x", count: 192) + "\n"
        #expect(try Self.parse(longest).section("a")?.values["urc"] == [String(repeating: "x", count: 192)])
    }

    /// What a new user's trial found inih reading otherwise than the file looks.
    @Test func linesInihWouldMisreadAreRefused() {
        func refusal(_ text: String) -> String? { Self.message { _ = try Self.parse(text) } }
        #expect(
            refusal("[a]\nport = sim:env\n[b]\nport = sim\n[a]\nbaud = 9600\n")
                == "config: line 5: [a] again (first at line 1); give each device one section")
        let long = String(repeating: "n", count: 60)
        #expect(refusal("[\(long)]\nport = sim\n") == "config: line 1: a name of 60 bytes; at most 49")
        #expect(
            refusal("[a/b]\nport = sim\n")
                == "config: line 1: the name 'a/b' holds '/' or ':', which make a path or an address of it")
        #expect(refusal("[x:y]\nport = sim\n")?.hasPrefix("config: line 1: the name 'x:y' holds") == true)
        #expect(refusal("[ pad ]\nport = sim\n") == "config: line 1: spaces around the name ' pad '")
        #expect(refusal("[a]b]\nport = sim\n") == "config: line 1: text after the section's ']'")
        #expect(refusal("[]\nport = sim\n") == "config: line 1: an empty section name; write [name]")
        #expect(
            refusal("[a]\nport = sim:env\n  baud = 9600\n")
                == "config: line 3: an indented line, which inih reads as more of the value above; remove the indentation"
        )
        #expect(refusal("[a]\nport = sim\ndescription = \u{FF}") == nil)
        #expect(
            Self.message { _ = try ConfigFile.parse([0x5B, 0x61, 0x5D, 0x0A, 0xFF, 0x0A], file: "config") }
                == "config: not UTF-8 text")
        // Accepted: a BOM, CRLF line ends, comments after a name, indented comments.
        #expect(refusal("\u{FEFF}[a] # the bench\r\nport = sim\r\n  # note\r\n") == nil)
    }

    @Test func placesAndSettings() throws {
        let psu = try #require(try Self.device("[psu]\nport = rfc2217://lab:7001\nbaud = 9600\n", "psu"))
        #expect(psu.place == .port("rfc2217://lab:7001"))
        #expect(psu.settings.map(\.values) == [["--baud": ["9600"]]])
        #expect(try Self.device("[s]\nport = sim\n", "s")?.place == .simulator(profile: nil))
        #expect(try Self.device("[s]\nport = sim:at-modem\n", "s")?.place == .simulator(profile: "at-modem"))
        #expect(try Self.device("[m]\nmatch = 0403:6001\n", "m")?.place == .match(try PortMatch(parsing: "0403:6001")))
    }

    @Test func badSectionsAreNamed() {
        let origin = "/home/u/.config/tether/config: [d]"
        #expect(
            Self.message { _ = try Self.device("[d]\nbaud = 9600\n", "d") }
                == "\(origin): no 'port' or 'match'; give one, e.g. port = /dev/ttyUSB0")
        #expect(
            Self.message { _ = try Self.device("[d]\nport = /dev/a\nmatch = ftdi\n", "d") }
                == "\(origin): both 'port' and 'match'; give one")
        #expect(
            Self.message { _ = try Self.device("[d]\nport = /dev/a\nport = /dev/b\n", "d") }
                == "\(origin) port: given 2 times; give it once")
        #expect(
            Self.message { _ = try Self.device("[d]\nport = /dev/a\nbud = 1\n", "d") }
                == "\(origin) bud: unknown setting; did you mean 'baud'?")
        #expect(
            Self.message { _ = try Self.device("[d]\nprot = /dev/a\n", "d") }
                == "\(origin) prot: unknown setting; did you mean 'port'?")
        #expect(
            Self.message { _ = try Self.device("[d]\nPort = sim:env\n", "d") }
                == "\(origin) Port: unknown setting; did you mean 'port'?")
        #expect(
            Self.message { _ = try Self.device("[d]\nport = b\n", "d") }
                == "\(origin) port: 'b' is no path or address; write /dev/b, ./b, rfc2217://HOST:PORT or sim")
        #expect(
            Self.message { _ = try Self.device("[d]\nport = /dev/a\nbaud = fast\n", "d") }?.hasPrefix(
                "\(origin) baud: ") == true)
        #expect(
            Self.message { _ = try Self.device("[d]\nport = sim:nope\n", "d") }?.hasPrefix(
                "\(origin) port: unknown simulator profile 'nope'") == true)
        #expect(
            Self.message { _ = try Self.device("[d]\nport = sim\ndevice = nope.json\n", "d") }
                == "\(origin) device: The device description '/home/u/.config/tether/nope.json' does not exist")
    }

    @Test func deviceFilePathsAreReadBesideTheConfiguration() {
        let file = "/etc/tether/config"
        #expect(NamedDevice.path("psu.json", besides: file, home: "/root") == "/etc/tether/psu.json")
        #expect(NamedDevice.path("~/psu.json", besides: file, home: "/root") == "/root/psu.json")
        #expect(NamedDevice.path("/opt/psu.json", besides: file, home: "/root") == "/opt/psu.json")
    }

    @Test func theUsersFileFirstAndXDGRules() throws {
        #expect(
            NamedDevices(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]).paths == [
                "/x/tether/config", "/etc/tether/config",
            ])
        #expect(
            NamedDevices(environment: ["XDG_CONFIG_HOME": "", "HOME": "/h"]).paths == [
                "/h/.config/tether/config", "/etc/tether/config",
            ])
        #expect(
            NamedDevices(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]).paths == [
                "/h/.config/tether/config", "/etc/tether/config",
            ])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tether-named-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let user = folder.appendingPathComponent("user").path
        let system = folder.appendingPathComponent("system").path
        try "[psu]\nport = /dev/user\n".write(toFile: user, atomically: true, encoding: .utf8)
        try "[psu]\nport = /dev/system\n[gps]\nport = /dev/gps\n".write(
            toFile: system, atomically: true, encoding: .utf8)
        let devices = NamedDevices(paths: [user, system], home: nil)
        #expect(try devices.device(named: "psu")?.place == .port("/dev/user"))
        #expect(try devices.device(named: "gps")?.place == .port("/dev/gps"))
        #expect(try devices.device(named: "none") == nil)
        #expect(devices.names().found.map(\.name) == ["psu", "gps"])
        #expect(devices.unknown("pus") == "No port or named device 'pus'; did you mean 'psu'?")
        #expect(devices.unknown("zzzzzz") == "No port or named device 'zzzzzz'; named devices: psu, gps")
        #expect(
            NamedDevices(paths: [], home: nil).unknown("sim")
                == "No port or named device 'sim' (no such file, and no [sim] in docs/CONFIG.md's files)")
        #expect(
            try NamedDevice(
                ConfigFile.parse(Array("[h]\nport = ~/dev\n".utf8), file: "c").sections[0], file: "c", home: "/root"
            ).place == .port("/root/dev"))
    }

    @Test func whatMayBeAName() {
        #expect(NamedDevices.mayName("lab-psu"))
        #expect(!NamedDevices.mayName("/dev/ttyUSB0"))
        #expect(!NamedDevices.mayName("rfc2217://h:1"))
        #expect(!NamedDevices.mayName("./dev"))
        #expect(!NamedDevices.mayName(""))
    }
}
