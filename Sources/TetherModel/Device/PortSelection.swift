import TetherSerial

/// The outcome of choosing a port by identity (`--match`) from a listing.
///
/// Pure: built from a ``PortMatch`` and the ports ``SerialPortInfo/list()`` found (or
/// a made-up listing in tests), so scripts that name an adapter by VID:PID and serial
/// number survive `/dev/ttyUSB0` becoming `/dev/ttyUSB1`.
package enum PortSelection: Sendable, Equatable {
    /// Exactly one port matches.
    case selected(SerialPortInfo)
    /// No port matches.
    case noMatch
    /// Several ports match (identical adapters without serial numbers, or the
    /// interfaces of a multi-port chip such as an FT2232); in listing order.
    case ambiguous([SerialPortInfo])

    /// Chooses among `ports` the ones `match` selects.
    package init(_ match: PortMatch, among ports: [SerialPortInfo]) {
        let found = ports.filter(match.matches)
        switch found.count {
        case 0: self = .noMatch
        case 1: self = .selected(found[0])
        default: self = .ambiguous(found)
        }
    }

    /// The node of the one port `match` selects among the ports present now.
    ///
    /// - Throws: ``SerialError/notFound(path:)`` (`--match VID:PID`) when none matches;
    ///   ``SerialError/io(path:function:errno:message:)`` naming the candidates when
    ///   several do; what ``SerialPortInfo/list()`` throws.
    package static func node(of match: PortMatch) throws(SerialError) -> String {
        switch PortSelection(match, among: try SerialPortInfo.list()) {
        case .selected(let port):
            return port.name
        case .noMatch:
            throw .notFound(path: "--match \(match)")
        case .ambiguous(let ports):
            let names = ports.map(\.name).joined(separator: ", ")
            throw .io(path: "--match \(match)", function: "select", errno: 0, message: "several ports match (\(names))")
        }
    }
}
