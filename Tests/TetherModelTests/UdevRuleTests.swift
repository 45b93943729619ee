import Foundation
import Testing
import TetherModel
import TetherSerial

@Suite struct UdevRuleTests {
    static let ftdi = SerialPortInfo(
        name: "/dev/ttyUSB0", description: "FT232R USB UART", transport: .usb, usbVendorID: 0x0403,
        usbProductID: 0x6001, manufacturer: "FTDI", product: "FT232R USB UART", serialNumber: "A1B2C3",
        byIDLinks: ["/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A1B2C3-if00-port0"])

    /// The folder `udev/` at the package root.
    static let udevFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("udev")

    @Test func ruleMatchesVendorProductSerialAndGrantsDialout() throws {
        let text = try UdevRule.text(for: Self.ftdi, name: "bench-psu")
        let rule = try #require(text.split(separator: "\n").last.map(String.init))
        #expect(
            rule == #"SUBSYSTEM=="tty", ATTRS{idVendor}=="0403", ATTRS{idProduct}=="6001", "#
                + #"ATTRS{serial}=="A1B2C3", ENV{ID_USB_INTERFACE_NUM}=="00", SYMLINK+="bench-psu", "#
                + #"GROUP="dialout", MODE="0660", ENV{ID_MM_DEVICE_IGNORE}="1""#)
        #expect(try UdevRuleSyntax.check(text).isEmpty)
    }

    @Test func adapterWithoutSerialNumberGetsNoSerialMatchAndAWarning() throws {
        var port = Self.ftdi
        port.serialNumber = nil
        port.byIDLinks = []
        let text = try UdevRule.text(for: port, name: "lab/probe")
        #expect(!text.contains("ATTRS{serial}"))
        #expect(!text.contains("ID_USB_INTERFACE_NUM"))
        #expect(text.contains("identical adapters all match"))
        #expect(text.contains(#"SYMLINK+="lab/probe""#))
        #expect(try UdevRuleSyntax.check(text).isEmpty)
    }

    @Test func serialNumberThatCannotBeQuotedIsLeftOut() throws {
        var port = Self.ftdi
        port.serialNumber = #"A"B*"#
        let text = try UdevRule.text(for: port, name: "psu")
        #expect(!text.contains("ATTRS{serial}"))
        #expect(text.contains(#"SYMLINK+="psu""#), "\(text)")
        #expect(try UdevRuleSyntax.check(text).isEmpty)
    }

    @Test func secondInterfaceOfAMultiPortChipIsMatched() throws {
        var port = Self.ftdi
        port.usbProductID = 0x6010
        port.byIDLinks = ["/dev/serial/by-id/usb-FTDI_Dual_RS232-HS-if01-port0", "/dev/serial/by-path/pci-0:1.0-port0"]
        #expect(try UdevRule.text(for: port, name: "jtag-uart").contains(#"ENV{ID_USB_INTERFACE_NUM}=="01""#))
    }

    @Test func nonUSBPortIsRefused() {
        #expect(throws: UdevRule.Failure.notUSB(port: "/tmp/sim")) {
            try UdevRule.text(for: SerialPortInfo(name: "/tmp/sim"), name: "psu")
        }
    }

    @Test(arguments: ["", "/dev/psu", "a b", "psu\"", "../etc/x", "lab//psu", "é"])
    func badNamesAreRefused(_ name: String) {
        #expect(throws: UdevRule.Failure.self) { try UdevRule.validate(name: name) }
    }

    @Test func everyRuleFileInTheUdevFolderParses() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.udevFolder.path)
            .filter { $0.hasSuffix(".rules") }
        #expect(files.count >= 2)
        for file in files {
            let text = try String(contentsOf: Self.udevFolder.appendingPathComponent(file), encoding: .utf8)
            #expect(try UdevRuleSyntax.check(text) == [], "\(file)")
            #expect(text.contains(#"GROUP="dialout""#), "\(file)")
        }
    }

    @Test func adapterRulesCoverTheCommonChips() throws {
        let text = try String(
            contentsOf: Self.udevFolder.appendingPathComponent("60-tether-usb-serial-adapters.rules"), encoding: .utf8)
        for id in ["0403:6001", "0403:6010", "0403:6014", "0403:6015", "10c4:ea60", "1a86:7523", "067b:2303"] {
            let parts = id.split(separator: ":")
            #expect(text.contains(#"ATTRS{idVendor}=="\#(parts[0])", ATTRS{idProduct}=="\#(parts[1])""#), "\(id)")
        }
        #expect(text.contains(#"DRIVERS=="cdc_acm""#))
    }

    @Test func theSyntaxCheckerRejectsBrokenRules() throws {
        // An assignment to a match-only key, then a match on an assignment-only key.
        #expect(try UdevRuleSyntax.check(#"SUBSYSTEM="tty", GROUP="dialout""#).count == 1)
        #expect(try UdevRuleSyntax.check(#"SUBSYSTEM=="tty", GROUP=="dialout""#).count == 1)
        #expect(try UdevRuleSyntax.check(#"SUBSYSTEM=="tty" GROUP="dialout""#).count == 1)  // missing comma
        #expect(try UdevRuleSyntax.check(#"SUBSYSTEM=="tty", MODE=0660"#).count == 1)  // unquoted
        #expect(try UdevRuleSyntax.check(#"SUBSYTEM=="tty""#).count == 1)  // unknown key
    }
}
