import TetherSerial

/// Fuzz target `marking`: the termios `PARMRK` unmarking of a local port's input
/// (`MarkedInputDecoder`).
///
/// The input is a program: data bytes and conditions (a break, an errored character)
/// between them, marked as Linux's line discipline marks them (0xFF doubled, `\377 \0
/// \0`, `\377 \0 c`), with the sizes of the reads; and a raw stream of any bytes.
/// Checked:
/// - the marked stream decodes to exactly the data and the conditions, each at its
///   place, whole, one byte per read and in the given reads, with nothing left over;
/// - any stream decodes the same whatever the reads, never to more bytes than it
///   holds plus one held `\377`, and what `finish()` gives back at the end is a
///   marking cut short.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarking(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var plain: [UInt8] = []
    var marks: [Placed] = []
    var marked: [UInt8] = []
    for _ in 0..<input.number(below: 16) {
        let run = input.chunk(limit: 40)
        plain += run
        marked += run.flatMap { $0 == 0xFF ? [0xFF, 0xFF] : [$0] }
        switch input.number(below: 3) {
        case 0:
            marks.append(Placed(offset: plain.count, mark: .lineBreak))
            marked += [0xFF, 0x00, 0x00]
        case 1:
            // A NUL with a framing error is marked as a break is: `\377 \0 \0`, a break.
            let byte = input.byte()
            marks.append(Placed(offset: plain.count, mark: byte == 0 ? .lineBreak : .erroredByte(byte)))
            marked += [0xFF, 0x00, byte]
        default:
            break
        }
    }
    let reads = (0..<6).map { _ in 1 + input.number(below: 32) }
    let raw = input.rest()
    trace("marked \(marked.count) bytes, \(marks.count) marks, reads \(reads), raw \(raw.count)")
    for sizes in [[max(1, marked.count)], [1], reads] {
        let decoded = decode(marked, reads: sizes)
        require(decoded.data == plain, "reads of \(sizes): the data differs")
        require(decoded.marks == marks, "reads of \(sizes): the marks differ")
        require(decoded.rest.isEmpty, "reads of \(sizes): \(decoded.rest) left over")
    }
    let whole = decode(raw, reads: [max(1, raw.count)])
    require(decode(raw, reads: [1]) == whole, "one byte per read decodes a raw stream otherwise")
    require(decode(raw, reads: reads) == whole, "reads of \(reads) decode a raw stream otherwise")
    require(whole.data.count <= raw.count, "more data than bytes")
    require(whole.rest == [] || whole.rest == [0xFF] || whole.rest == [0xFF, 0x00], "left over: \(whole.rest)")
    return 0
}

private struct Placed: Equatable {
    var offset: Int
    var mark: MarkedInputDecoder.Mark
}

/// Decodes `stream` in reads of the given sizes (the last repeated), each read in a
/// buffer with the one byte of room a held `\377` may need.
private func decode(_ stream: [UInt8], reads sizes: [Int]) -> (data: [UInt8], marks: [Placed], rest: [UInt8]) {
    var decoder = MarkedInputDecoder()
    var data: [UInt8] = []
    var marks: [Placed] = []
    var start = 0
    var index = 0
    while start < stream.count {
        let size = min(sizes[min(index, sizes.count - 1)], stream.count - start)
        var buffer = Array(stream[start..<start + size]) + [0]
        let before = data.count
        let count = buffer.withUnsafeMutableBytes { raw in
            decoder.decode(raw, count: size) { marks.append(Placed(offset: before + $0, mark: $1)) }
        }
        require(count <= size + 1, "\(count) data bytes from a read of \(size)")
        data += buffer[..<count]
        start += size
        index += 1
    }
    return (data, marks, decoder.finish())
}
