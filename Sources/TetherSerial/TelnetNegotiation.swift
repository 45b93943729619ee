/// Which telnet options are on, and the replies to the server's requests (RFC 854's
/// option negotiation, answering only changes, so two peers never loop).
///
/// tether asks to send and receive 8-bit data (BINARY, RFC 856), without go-aheads
/// (SUPPRESS-GO-AHEAD, RFC 858), and to control the serial port (COM-PORT-OPTION,
/// RFC 2217); it refuses every other option, ECHO included.
struct TelnetNegotiation {
    private static let wantedLocal: Set<UInt8> = [
        Telnet.Option.binary, Telnet.Option.suppressGoAhead, Telnet.Option.comPort,
    ]
    private static let wantedRemote: Set<UInt8> = [Telnet.Option.binary, Telnet.Option.suppressGoAhead]

    /// Options tether performs (the server said DO).
    private(set) var local: Set<UInt8> = []
    /// Options the server performs (it said WILL).
    private(set) var remote: Set<UInt8> = []
    private var requestedLocal: Set<UInt8> = []
    private var requestedRemote: Set<UInt8> = []
    private var refused: Set<[UInt8]> = []

    /// Whether the server refused serial port control (`DONT COM-PORT-OPTION`).
    private(set) var isComPortRefused = false

    /// Whether the server accepted serial port control (`DO COM-PORT-OPTION`).
    var isComPortAccepted: Bool { local.contains(Telnet.Option.comPort) }

    /// tether's opening requests: `WILL`/`DO` BINARY and SUPPRESS-GO-AHEAD, `WILL`
    /// COM-PORT-OPTION.
    mutating func opening() -> [UInt8] {
        var bytes: [UInt8] = []
        for option in [Telnet.Option.binary, Telnet.Option.suppressGoAhead, Telnet.Option.comPort] {
            requestedLocal.insert(option)
            bytes += [Telnet.iac, Telnet.will, option]
        }
        for option in [Telnet.Option.binary, Telnet.Option.suppressGoAhead] {
            requestedRemote.insert(option)
            bytes += [Telnet.iac, Telnet.do, option]
        }
        return bytes
    }

    /// Takes the server's `verb option` and returns the reply to send (maybe none).
    mutating func handle(verb: UInt8, option: UInt8) -> [UInt8] {
        switch verb {
        case Telnet.will:
            guard Self.wantedRemote.contains(option) else { return refuse(Telnet.dont, option) }
            let answered = requestedRemote.remove(option) != nil
            return remote.insert(option).inserted && !answered ? [Telnet.iac, Telnet.do, option] : []
        case Telnet.wont:
            requestedRemote.remove(option)
            return remote.remove(option) != nil ? [Telnet.iac, Telnet.dont, option] : []
        case Telnet.do:
            guard Self.wantedLocal.contains(option) else { return refuse(Telnet.wont, option) }
            let answered = requestedLocal.remove(option) != nil
            return local.insert(option).inserted && !answered ? [Telnet.iac, Telnet.will, option] : []
        case Telnet.dont:
            if option == Telnet.Option.comPort { isComPortRefused = true }
            requestedLocal.remove(option)
            return local.remove(option) != nil ? [Telnet.iac, Telnet.wont, option] : []
        default:
            return []
        }
    }

    /// Refuses an option once (a server repeating its request gets no second answer).
    private mutating func refuse(_ verb: UInt8, _ option: UInt8) -> [UInt8] {
        refused.insert([verb, option]).inserted ? [Telnet.iac, verb, option] : []
    }
}
