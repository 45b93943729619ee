import TetherLibC

/// Where a port is: a device node on this machine, or a serial port another machine
/// exports over TCP (ser2net, a terminal server) — the one parser of every port
/// argument.
///
/// Spellings: a path (`/dev/ttyUSB0`, `/dev/serial/by-id/…`, `/dev/pts/3`);
/// `tcp://HOST:PORT` for raw bytes over TCP; `rfc2217://HOST:PORT` for telnet with
/// RFC 2217 COM-PORT-OPTION, which also carries the baud rate, data bits, parity,
/// stop bits, flow control, DTR/RTS and break. HOST is a name, an IPv4 address or an
/// IPv6 address in brackets (`[::1]`); PORT is 1...65535.
public enum PortAddress: Sendable, Equatable, CustomStringConvertible {
    /// A device node or a link to one, as typed.
    case device(String)
    /// Raw TCP: the bytes of the connection are the serial line's bytes.
    case tcp(host: String, port: UInt16)
    /// Telnet with RFC 2217 (COM-PORT-OPTION) serial port control.
    case rfc2217(host: String, port: UInt16)

    /// Why a `tcp://` or `rfc2217://` address cannot be used.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// One line for the user, naming the address.
        public let description: String
    }

    /// Reads a port argument: a URL when it starts with `tcp://` or `rfc2217://`
    /// (any case), else a path.
    ///
    /// - Throws: ``ParseError`` for a URL without a host, with a user name
    ///   (`tcp://user@host:7000`), without a port, with a port outside 1...65535, with a
    ///   path after the port, or with another scheme (`foo://x`, `telnet://host:23`).
    public init(parsing text: String) throws(ParseError) {
        let lowered = text.lowercased()
        for (scheme, isTelnet) in [("tcp://", false), ("rfc2217://", true)] where lowered.hasPrefix(scheme) {
            let (host, port) = try Self.hostAndPort(text.dropFirst(scheme.count), in: text)
            self = isTelnet ? .rfc2217(host: host, port: port) : .tcp(host: host, port: port)
            return
        }
        if let scheme = Self.scheme(of: text) {
            throw ParseError(
                description:
                    "The address \(Quoted(text)) has the unknown scheme \(Quoted(scheme + "://")): give a path (/dev/ttyUSB0), "
                    + "tcp://HOST:PORT or rfc2217://HOST:PORT")
        }
        self = .device(text)
    }

    /// `foo` of `foo://…` (RFC 3986 scheme characters), or `nil` when `text` is no URL.
    private static func scheme(of text: String) -> Substring? {
        guard let colon = text.firstIndex(of: ":"), colon > text.startIndex,
            text[colon...].hasPrefix("://")
        else { return nil }
        let scheme = text[..<colon]
        let isScheme =
            scheme.first!.isASCII && scheme.first!.isLetter
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        return isScheme ? scheme : nil
    }

    /// The address as the user would type it again.
    public var description: String {
        switch self {
        case .device(let path): path
        case .tcp(let host, let port): "tcp://\(Self.bracketed(host)):\(port)"
        case .rfc2217(let host, let port): "rfc2217://\(Self.bracketed(host)):\(port)"
        }
    }

    /// Whether the port is reached over the network.
    public var isRemote: Bool {
        if case .device = self { return false }
        return true
    }

    private static func bracketed(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

    private static func hostAndPort(_ rest: Substring, in text: String) throws(ParseError) -> (String, UInt16) {
        let example = "e.g. rfc2217://127.0.0.1:7000 or tcp://[::1]:7000"
        let host: Substring
        let afterHost: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw ParseError(description: "The address \(Quoted(text)) has an unclosed '[' (\(example))")
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            afterHost = rest[rest.index(after: close)...]
        } else {
            let colon = rest.lastIndex(of: ":") ?? rest.endIndex
            host = rest[..<colon]
            afterHost = rest[colon...]
        }
        guard !host.isEmpty else {
            throw ParseError(description: "The address \(Quoted(text)) has no host (\(example))")
        }
        if let at = host.lastIndex(of: "@") {
            throw ParseError(
                description:
                    "The address \(Quoted(text)) has a user name (\(Quoted(host[...at]))), which tcp:// and rfc2217:// do not "
                    + "carry: give HOST:PORT (\(example))")
        }
        guard afterHost.hasPrefix(":"), afterHost.count > 1 else {
            throw ParseError(description: "The address \(Quoted(text)) has no port (\(example))")
        }
        guard let port = UInt16(afterHost.dropFirst()), port > 0 else {
            throw ParseError(
                description:
                    "The address \(Quoted(text)) has an invalid port \(Quoted(afterHost.dropFirst())): give 1 to 65535")
        }
        return (String(host), port)
    }
}
