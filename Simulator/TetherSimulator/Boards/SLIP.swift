/// SLIP framing (RFC 1055) as esptool's serial protocol uses it: each packet between
/// two 0xC0 bytes, 0xC0 sent as 0xDB 0xDC and 0xDB as 0xDB 0xDD.
public enum SLIP {
    /// `packet` framed: 0xC0, the escaped bytes, 0xC0.
    public static func encode(_ packet: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0xC0]
        for byte in packet {
            switch byte {
            case 0xC0: bytes += [0xDB, 0xDC]
            case 0xDB: bytes += [0xDB, 0xDD]
            default: bytes.append(byte)
            }
        }
        return bytes + [0xC0]
    }

    /// Takes bytes in as they arrive and gives back each packet once its closing 0xC0
    /// came; bytes before the first 0xC0 are not a packet, and a packet is at most
    /// 65 536 bytes (longer ones are dropped).
    public struct Decoder: Sendable {
        private var packet: [UInt8] = []
        private var isInPacket = false
        private var isEscaped = false

        /// Creates a decoder outside any packet.
        public init() {}

        /// The packets `bytes` completed, in order.
        public mutating func feed(_ bytes: [UInt8]) -> [[UInt8]] {
            var packets: [[UInt8]] = []
            for byte in bytes {
                if byte == 0xC0 {
                    if isInPacket, !packet.isEmpty { packets.append(packet) }
                    packet.removeAll(keepingCapacity: true)
                    isInPacket = true
                    isEscaped = false
                    continue
                }
                guard isInPacket else { continue }
                if isEscaped {
                    packet.append(byte == 0xDC ? 0xC0 : byte == 0xDD ? 0xDB : byte)
                    isEscaped = false
                } else if byte == 0xDB {
                    isEscaped = true
                } else {
                    packet.append(byte)
                }
                if packet.count > 65_536 {
                    packet.removeAll()
                    isInPacket = false
                }
            }
            return packets
        }
    }
}
