import Testing

@testable import TetherSerial

@Suite struct PortMatchTests {
    static let ftdi = SerialPortInfo(
        name: "/dev/ttyUSB0", description: "FT232R USB UART - FT232R USB UART", transport: .usb,
        usbVendorID: 0x0403, usbProductID: 0x6001, manufacturer: "FTDI", product: "FT232R USB UART",
        serialNumber: "A50285BI")
    static let cp2102 = SerialPortInfo(
        name: "/dev/ttyUSB1", description: "CP2102 USB to UART Bridge Controller", transport: .usb,
        usbVendorID: 0x10C4, usbProductID: 0xEA60, manufacturer: "Silicon Labs",
        product: "CP2102 USB to UART Bridge Controller", serialNumber: "0001")
    static let uart = SerialPortInfo(name: "/dev/ttyS0", description: "ttyS0")
    static let listing = [ftdi, cp2102, uart]

    private func matching(_ text: String) throws -> [String] {
        let match = try PortMatch(parsing: text)
        return Self.listing.filter(match.matches).map(\.name)
    }

    @Test func parsesUSBIDsAndText() throws {
        #expect(try PortMatch(parsing: "0403:6001") == .usbID(vendorID: 0x0403, productID: 0x6001, serialNumber: nil))
        #expect(
            try PortMatch(parsing: " 10c4:EA60:0001 ")
                == .usbID(vendorID: 0x10C4, productID: 0xEA60, serialNumber: "0001"))
        #expect(
            try PortMatch(parsing: "403:6001:A:B") == .usbID(vendorID: 0x403, productID: 0x6001, serialNumber: "A:B"))
        #expect(try PortMatch(parsing: "CP2102") == .text("CP2102"))
        #expect(try PortMatch(parsing: "Silicon Labs") == .text("Silicon Labs"))
        #expect(try PortMatch(parsing: "Model: X") == .text("Model: X"))
    }

    @Test(arguments: ["", "   ", "0403:", "0403:60011", "0403:zz", "0403:6001:"])
    func rejectsMalformedValues(text: String) {
        #expect(throws: PortMatch.ParseError.self) { try PortMatch(parsing: text) }
    }

    @Test func errorMessageNamesTheValueAndTheForms() {
        #expect(
            throws: PortMatch.ParseError(input: "0403:zz", reason: "'zz' is not a USB product ID (1 to 4 hex digits)")
        ) {
            try PortMatch(parsing: "0403:zz")
        }
        let error = PortMatch.ParseError(input: "", reason: "it is empty")
        #expect(error.description.contains("VID:PID[:SERIAL]"))
    }

    @Test func matchesByUSBIDSerialAndText() throws {
        #expect(try matching("0403:6001") == ["/dev/ttyUSB0"])
        #expect(try matching("0403:6001:A50285BI") == ["/dev/ttyUSB0"])
        #expect(try matching("0403:6001:OTHER") == [])
        #expect(try matching("10c4:ea60") == ["/dev/ttyUSB1"])
        #expect(try matching("cp2102") == ["/dev/ttyUSB1"])
        #expect(try matching("ftdi") == ["/dev/ttyUSB0"])
        #expect(try matching("USB") == ["/dev/ttyUSB0", "/dev/ttyUSB1"])
        #expect(try matching("ttyS0") == ["/dev/ttyS0"])
        #expect(try matching("Prolific") == [])
    }

    @Test func describesItselfInMatchSyntax() throws {
        #expect(try PortMatch(parsing: "403:6001:X1").description == "0403:6001:X1")
        #expect(try PortMatch(parsing: "FTDI").description == "FTDI")
    }
}
