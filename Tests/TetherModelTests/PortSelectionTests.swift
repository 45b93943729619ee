import Testing
import TetherModel
import TetherSerial

@Suite struct PortSelectionTests {
    static let ftdiA = SerialPortInfo(
        name: "/dev/ttyUSB0", description: "FT232R USB UART", transport: .usb, usbVendorID: 0x0403,
        usbProductID: 0x6001, manufacturer: "FTDI", product: "FT232R USB UART", serialNumber: "A1B2C3")
    static let ftdiB = SerialPortInfo(
        name: "/dev/ttyUSB1", description: "FT232R USB UART", transport: .usb, usbVendorID: 0x0403,
        usbProductID: 0x6001, manufacturer: "FTDI", product: "FT232R USB UART", serialNumber: "Z9Y8X7")
    static let cp2102 = SerialPortInfo(
        name: "/dev/ttyUSB2", description: "CP2102 USB to UART Bridge Controller", transport: .usb,
        usbVendorID: 0x10c4, usbProductID: 0xea60, manufacturer: "Silicon Labs",
        product: "CP2102 USB to UART Bridge Controller", serialNumber: "0001")
    static let uart = SerialPortInfo(name: "/dev/ttyS0", description: "ttyS0")
    static let listing = [uart, ftdiA, ftdiB, cp2102]

    private func select(_ match: String, _ ports: [SerialPortInfo] = listing) throws -> PortSelection {
        PortSelection(try PortMatch(parsing: match), among: ports)
    }

    @Test func vendorProductAndSerialPicksOneOfTwoIdenticalAdapters() throws {
        #expect(try select("0403:6001:Z9Y8X7") == .selected(Self.ftdiB))
    }

    @Test func vendorProductAloneIsAmbiguousForTwoIdenticalAdapters() throws {
        #expect(try select("0403:6001") == .ambiguous([Self.ftdiA, Self.ftdiB]))
    }

    @Test func productSubstringIgnoresCase() throws {
        #expect(try select("cp2102") == .selected(Self.cp2102))
        #expect(try select("silicon") == .selected(Self.cp2102))
    }

    @Test func nothingMatchesAnEmptyOrForeignListing() throws {
        #expect(try select("0403:6001", []) == .noMatch)
        #expect(try select("1a86:7523") == .noMatch)
        #expect(try select("0403:6001:NOPE") == .noMatch)
    }

    @Test func aPortWithoutUSBIdentityIsNeverMatchedByID() throws {
        #expect(try select("0000:0000", [Self.uart]) == .noMatch)
    }
}
