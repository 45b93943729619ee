import Testing
import TetherSerial

struct PortAddressTests {
    @Test(arguments: [
        ("/dev/ttyUSB0", PortAddress.device("/dev/ttyUSB0")),
        ("/dev/serial/by-id/usb-FTDI-if00-port0", .device("/dev/serial/by-id/usb-FTDI-if00-port0")),
        ("./links/a://b", .device("./links/a://b")),
        ("tcp://127.0.0.1:7000", .tcp(host: "127.0.0.1", port: 7000)),
        ("TCP://lab-rack-3:2001", .tcp(host: "lab-rack-3", port: 2001)),
        ("rfc2217://127.0.0.1:7001", .rfc2217(host: "127.0.0.1", port: 7001)),
        ("rfc2217://[::1]:65535", .rfc2217(host: "::1", port: 65535)),
    ])
    func parses(text: String, address: PortAddress) throws {
        #expect(try PortAddress(parsing: text) == address)
    }

    @Test func printsAsTyped() throws {
        #expect(try PortAddress(parsing: "rfc2217://[::1]:7000").description == "rfc2217://[::1]:7000")
        #expect(try PortAddress(parsing: "tcp://host:7000").description == "tcp://host:7000")
        #expect(try PortAddress(parsing: "/dev/ttyS0").description == "/dev/ttyS0")
    }

    @Test(arguments: [
        ("tcp://127.0.0.1", "The address 'tcp://127.0.0.1' has no port"),
        ("tcp://127.0.0.1:", "The address 'tcp://127.0.0.1:' has no port"),
        ("rfc2217://:7000", "The address 'rfc2217://:7000' has no host"),
        ("rfc2217://[::1:7000", "The address 'rfc2217://[::1:7000' has an unclosed '['"),
        ("tcp://host:0", "The address 'tcp://host:0' has an invalid port '0': give 1 to 65535"),
        ("tcp://host:70000", "The address 'tcp://host:70000' has an invalid port '70000': give 1 to 65535"),
        ("tcp://host:7000/x", "The address 'tcp://host:7000/x' has an invalid port '7000/x': give 1 to 65535"),
        ("tcp://user@host:7000", "The address 'tcp://user@host:7000' has a user name ('user@')"),
        ("rfc2217://me@lab:7000", "The address 'rfc2217://me@lab:7000' has a user name ('me@')"),
        ("foo://x", "The address 'foo://x' has the unknown scheme 'foo://'"),
        ("telnet://lab:23", "The address 'telnet://lab:23' has the unknown scheme 'telnet://'"),
    ])
    func refuses(text: String, message: String) {
        #expect {
            try PortAddress(parsing: text)
        } throws: { error in
            (error as? PortAddress.ParseError)?.description.hasPrefix(message) == true
        }
    }
}
