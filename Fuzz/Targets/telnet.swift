@testable import TetherSerial

/// Fuzz target `telnet`: the telnet layer of `rfc2217://` ports — the decoder, the
/// option negotiation and the writer.
///
/// The input is a program: a server's byte stream with the sizes of its reads, then
/// data to send with the socket's capacity for each write (0 for a full socket) and
/// commands to queue between them. Checked:
/// - decoding is restartable: the whole stream, one byte per read and the given reads
///   give the same data and commands; no data byte is invented (never more data than
///   bytes), no subnegotiation keeps more than its 64 bytes, and one that runs past
///   4096 bytes without `IAC SE` is given up, once, with what follows as data;
/// - negotiation answers are whole `IAC verb option` commands, and the server
///   repeating a request gets no second answer (no negotiation loop);
/// - the writer: what the socket took decodes to exactly the data bytes `transmit`
///   counted as sent, in order, with the queued commands as commands and at most
///   `NOP`s besides; the queue never holds more than 4096 bytes; and with room in
///   every write, every byte goes out in a bounded number of calls (no livelock).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTelnet(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let stream = input.chunk(limit: 255) + Array(repeating: input.byte(), count: input.number(below: 3) * 2500)
    let reads = (0..<8).map { _ in 1 + input.number(below: 64) }
    trace("stream of \(stream.count) bytes, reads \(reads)")
    checkDecoder(stream, reads: reads)
    checkNegotiation(stream)
    checkWriter(&input)
    return 0
}

/// Decodes `stream` in reads of the given sizes (the last repeated).
private func decode(_ stream: [UInt8], reads sizes: [Int]) -> (data: [UInt8], commands: [TelnetDecoder.Command]) {
    var decoder = TelnetDecoder()
    var data: [UInt8] = []
    var commands: [TelnetDecoder.Command] = []
    var start = 0
    var index = 0
    while start < stream.count {
        let size = min(sizes[min(index, sizes.count - 1)], stream.count - start)
        var chunk = Array(stream[start..<start + size])
        let kept = chunk.withUnsafeMutableBytes { decoder.decode($0, count: size, commands: &commands) }
        require(kept <= size, "\(kept) data bytes from a read of \(size)")
        data += chunk[..<kept]
        start += size
        index += 1
    }
    return (data, commands)
}

private func checkDecoder(_ stream: [UInt8], reads: [Int]) {
    let whole = decode(stream, reads: [max(1, stream.count)])
    require(decode(stream, reads: [1]) == whole, "one byte per read decodes otherwise")
    require(decode(stream, reads: reads) == whole, "reads of \(reads) decode otherwise")
    require(whole.data.count <= stream.count, "more data than bytes")
    var unterminated = 0
    for command in whole.commands {
        switch command {
        case .subnegotiation(let bytes):
            require(bytes.count <= TelnetDecoder.maximumSubnegotiation, "a subnegotiation of \(bytes.count) bytes kept")
        case .unterminatedSubnegotiation:
            unterminated += 1
        case .negotiation, .other:
            break
        }
    }
    let abandonable = stream.count / (TelnetDecoder.maximumSubnegotiationLength + 2)
    require(unterminated <= abandonable, "\(unterminated) subnegotiations given up in \(stream.count) bytes")
}

private func checkNegotiation(_ stream: [UInt8]) {
    var negotiation = TelnetNegotiation()
    _ = negotiation.opening()
    for case .negotiation(let verb, let option) in decode(stream, reads: [max(1, stream.count)]).commands {
        let reply = negotiation.handle(verb: verb, option: option)
        require(reply.count % 3 == 0, "a torn reply \(reply)")
        for start in stride(from: 0, to: reply.count, by: 3) {
            require(reply[start] == Telnet.iac, "a reply that is not a command: \(reply)")
            require([Telnet.will, Telnet.wont, Telnet.do, Telnet.dont].contains(reply[start + 1]), "verb \(reply)")
            require(reply[start + 2] == option, "a reply about another option: \(reply)")
        }
        require(negotiation.handle(verb: verb, option: option).isEmpty, "a repeated request answered again")
    }
}

/// A socket taking at most the given number of bytes per write (the last repeated).
private final class Socket {
    var capacities: [Int]
    var stream: [UInt8] = []
    var calls = 0

    init(_ capacities: [Int]) { self.capacities = capacities }

    func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        calls += 1
        let capacity = capacities.count > 1 ? capacities.removeFirst() : capacities[0]
        let taken = min(capacity, bytes.count)
        stream += bytes.prefix(taken)
        return taken
    }
}

private func checkWriter(_ input: inout FuzzInput) {
    let capacities = (0..<16).map { _ in input.number(below: 5) } + [1 + input.number(below: 3)]
    let socket = Socket(capacities)
    var writer = TelnetWriter()
    var sent: [UInt8] = []
    var queued: [TelnetDecoder.Command] = []
    while !input.isEmpty {
        if input.number(below: 4) == 0 {
            let option = input.byte()
            let command = [Telnet.iac, Telnet.wont, option]
            if writer.queue(command: command) { queued.append(.negotiation(verb: Telnet.wont, option: option)) }
            continue
        }
        let data = input.chunk(limit: 32)
        var offset = 0
        var tries = 0
        while offset < data.count {
            tries += 1
            // A zero-capacity write makes no progress, 16 at most; every other call
            // writes a byte (a command's, a NOP, or data): 4096 command bytes at most.
            require(tries <= 10_000, "no progress after \(tries) calls: a livelock")
            let taken = try! Array(data[offset...]).withBytes { (bytes) throws(SerialError) in
                try writer.transmit(bytes) { socket.write($0) }
            }
            require(taken <= data.count - offset, "transmit counted \(taken) of \(data.count - offset)")
            sent += data[offset..<offset + taken]
            offset += taken
        }
    }
    var flushes = 0
    while try! !writer.flushCommands(through: { socket.write($0) }) {
        flushes += 1
        require(flushes <= 10_000, "the queue never empties")
    }
    let (data, commands) = decode(socket.stream, reads: [max(1, socket.stream.count)])
    require(data == sent, "the socket got \(data), transmit counted \(sent)")
    let meaningful = commands.filter { $0 != .other(Telnet.nop) }
    require(meaningful == queued, "commands \(meaningful), queued \(queued)")
}
