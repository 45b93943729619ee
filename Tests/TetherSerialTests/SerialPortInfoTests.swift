import Testing

@testable import TetherSerial

@Suite struct SerialPortInfoTests {
    @Test func listingDoesNotFail() throws {
        let ports = try SerialPortInfo.list()
        #expect(ports.map(\.name) == ports.map(\.name).sorted())
        for port in ports { #expect(port.name.hasPrefix("/dev/")) }
    }

    @Test func linksAreAttachedToTheNodesTheyResolveTo() {
        let ports = [
            SerialPortInfo(name: "/dev/ttyACM0", transport: .usb),
            SerialPortInfo(name: "/dev/ttyS0"),
            SerialPortInfo(name: "/dev/ttyUSB0", transport: .usb),
        ]
        let links = [
            "/dev/serial/by-path/pci-0000:00:14.0-usb-0:2:1.0-port0": "/dev/ttyUSB0",
            "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0": "/dev/ttyUSB0",
            "/dev/serial/by-id/usb-Arduino_Uno_7503-if00": "/dev/ttyACM0",
            "/dev/serial/by-id/usb-Gone_Device-if00": "/dev/ttyUSB9",
        ]
        let linked = SerialPortInfo.linking(ports, linkTargets: links)
        #expect(linked.map(\.name) == ports.map(\.name))
        #expect(linked[0].byIDLinks == ["/dev/serial/by-id/usb-Arduino_Uno_7503-if00"])
        #expect(linked[1].byIDLinks == [])
        #expect(
            linked[2].byIDLinks == [
                "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0",
                "/dev/serial/by-path/pci-0000:00:14.0-usb-0:2:1.0-port0",
            ])
    }

    @Test func usbIDIsFourHexDigitsEach() {
        #expect(SerialPortInfo(name: "/dev/ttyUSB0", usbVendorID: 0x403, usbProductID: 0x6001).usbID == "0403:6001")
        #expect(SerialPortInfo(name: "/dev/ttyS0").usbID == nil)
    }
}
