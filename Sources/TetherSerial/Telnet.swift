/// The telnet protocol's bytes (RFC 854, RFC 855) and the options tether uses.
enum Telnet {
    /// Interpret As Command: starts every command; doubled (`IAC IAC`) it is a data
    /// byte 0xFF.
    static let iac: UInt8 = 255
    /// Refuses an option the peer would perform.
    static let dont: UInt8 = 254
    /// Asks the peer to perform an option.
    static let `do`: UInt8 = 253
    /// Refuses to perform an option.
    static let wont: UInt8 = 252
    /// Offers to perform an option.
    static let will: UInt8 = 251
    /// Starts a subnegotiation: `IAC SB option parameters… IAC SE`.
    static let sb: UInt8 = 250
    /// Ends a subnegotiation.
    static let se: UInt8 = 240
    /// No operation.
    static let nop: UInt8 = 241

    /// Options (the IANA telnet option registry).
    enum Option {
        /// RFC 856: 8-bit data, no CR NUL stuffing.
        static let binary: UInt8 = 0
        /// RFC 857: the server echoes (refused: a serial device echoes for itself).
        static let echo: UInt8 = 1
        /// RFC 858: no go-ahead signals.
        static let suppressGoAhead: UInt8 = 3
        /// RFC 2217: serial port control.
        static let comPort: UInt8 = 44
    }
}
