import Glibc

/// The receiving side of telnet (RFC 854): takes the commands out of the byte
/// stream and leaves the data, with `IAC IAC` turned back into one 0xFF.
///
/// Incremental and restartable: a command split across two reads is completed by
/// the second. Decoding is in place, since data never grows; a chunk without 0xFF in
/// the data state is passed through untouched (`memchr`).
struct TelnetDecoder {
    /// A command found in the stream.
    enum Command: Equatable, Sendable {
        /// `IAC WILL|WONT|DO|DONT option`.
        case negotiation(verb: UInt8, option: UInt8)
        /// `IAC SB option parameters… IAC SE`, with the option first.
        case subnegotiation([UInt8])
        /// Any other command (`IAC NOP`, `IAC BRK`…).
        case other(UInt8)
        /// `IAC SB option` followed by more than ``maximumSubnegotiationLength`` bytes
        /// without `IAC SE`: the decoder gave up on it, and reads the bytes after those
        /// as data.
        case unterminatedSubnegotiation(option: UInt8?)
    }

    /// The most bytes of one subnegotiation kept; the rest are dropped (RFC 2217's
    /// longest is 6).
    static let maximumSubnegotiation = 64
    /// The most bytes a subnegotiation may run without `IAC SE` (4096): past it, it is
    /// ``Command/unterminatedSubnegotiation(option:)``, so a server that never ends one
    /// cannot swallow the device's data for ever.
    static let maximumSubnegotiationLength = 4096

    private enum State {
        case data
        case command
        case option(verb: UInt8)
        case subnegotiation
        case subnegotiationCommand
    }

    private var state = State.data
    private var parameters: [UInt8] = []
    private var subnegotiationLength = 0

    /// Decodes the first `count` bytes of `buffer` in place.
    ///
    /// - Parameters:
    ///   - buffer: the bytes as received; on return its first bytes are the data.
    ///   - count: how many bytes of `buffer` were received.
    ///   - commands: where the commands found are appended, in order.
    /// - Returns: how many data bytes are now at the start of `buffer`.
    mutating func decode(
        _ buffer: UnsafeMutableRawBufferPointer, count: Int, commands: inout [Command]
    ) -> Int {
        guard let base = buffer.baseAddress, count > 0 else { return 0 }
        if case .data = state, memchr(base, Int32(Telnet.iac), count) == nil { return count }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var kept = 0
        for index in 0..<count {
            let byte = bytes[index]
            switch state {
            case .data:
                if byte == Telnet.iac {
                    state = .command
                } else {
                    bytes[kept] = byte
                    kept += 1
                }
            case .command:
                state = .data
                switch byte {
                case Telnet.iac:
                    bytes[kept] = byte
                    kept += 1
                case Telnet.will, Telnet.wont, Telnet.do, Telnet.dont:
                    state = .option(verb: byte)
                case Telnet.sb:
                    parameters.removeAll(keepingCapacity: true)
                    subnegotiationLength = 0
                    state = .subnegotiation
                default:
                    commands.append(.other(byte))
                }
            case .option(let verb):
                commands.append(.negotiation(verb: verb, option: byte))
                state = .data
            case .subnegotiation:
                if byte == Telnet.iac {
                    state = .subnegotiationCommand
                } else if !keep(byte) {
                    abandonSubnegotiation(&commands)
                    bytes[kept] = byte
                    kept += 1
                }
            case .subnegotiationCommand:
                if byte == Telnet.iac {
                    if keep(byte) {
                        state = .subnegotiation
                    } else {
                        abandonSubnegotiation(&commands)
                        bytes[kept] = byte
                        kept += 1
                    }
                } else {
                    // IAC SE ends it; any other command ends a malformed one too.
                    commands.append(.subnegotiation(parameters))
                    state = .data
                }
            }
        }
        return kept
    }

    /// Gives up on a subnegotiation that ran too long: the byte past the bound, and
    /// what follows, are data.
    private mutating func abandonSubnegotiation(_ commands: inout [Command]) {
        commands.append(.unterminatedSubnegotiation(option: parameters.first))
        state = .data
    }

    /// Adds `byte` to the subnegotiation; `false`, adding nothing, when it holds
    /// ``maximumSubnegotiationLength`` bytes already.
    private mutating func keep(_ byte: UInt8) -> Bool {
        guard subnegotiationLength < Self.maximumSubnegotiationLength else { return false }
        subnegotiationLength += 1
        if parameters.count < Self.maximumSubnegotiation { parameters.append(byte) }
        return true
    }
}
