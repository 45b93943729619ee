extension SerialTransport {
    /// What ``SerialTransport/receive(into:)`` returns when the descriptor was readable
    /// but nothing in it is for the caller: −1.
    ///
    /// A transport with a protocol layer returns it when what it read was all protocol
    /// (a telnet option negotiation or an RFC 2217 notification, see ``RFC2217Port``),
    /// or when a socket woke `poll` with nothing to read. It is not the end of the
    /// stream (that is 0): the caller polls again.
    public static var nothingReceived: Int { -1 }
}
