import Testing
import TetherTransfer

/// Sender and receiver in memory: every size and protocol arrives byte-identical.
@Suite struct TransferRoundTripTests {
    static let sizes = [0, 1, 127, 128, 129, 1023, 1024, 1025, 200 * 1024]

    /// What an XMODEM receiver keeps of `data`: the blocks the sender makes, padded.
    static func padded(_ data: [UInt8], blockSize: Int) -> [UInt8] {
        var total = 0
        var left = data.count
        while left > 0 {
            let count = min(left, blockSize)
            total += count <= 128 ? 128 : blockSize
            left -= count
        }
        return data + Array(repeating: 0x1A, count: total - data.count)
    }

    /// An outcome in a few words, so that a failure does not print whole files.
    static func brief(_ outcome: TransferOutcome) -> String {
        switch outcome {
        case .completed(let files): "completed \(files.count)"
        case .failed(let failure): "failed: \(failure)"
        }
    }

    static func link(_ kind: TransferProtocol, _ files: [TransferFile], noise: TransferLink.Noise = .none)
        -> TransferLink
    {
        TransferLink(sender: TransferSender(kind, files: files), receiver: TransferReceiver(kind), noise: noise)
    }

    @Test(arguments: [TransferProtocol.xmodem, .xmodemCRC, .xmodem1K], sizes)
    func xmodemArrivesPadded(kind: TransferProtocol, size: Int) {
        let data = randomBytes(size)
        var link = Self.link(kind, [TransferFile(name: "f", data: data)])
        let result = link.run()
        #expect(result.sent.map(Self.brief) == "completed 1")
        let expected = TransferFile(name: nil, data: Self.padded(data, blockSize: kind.blockSize))
        #expect(result.received.map(Self.brief) == "completed 1")
        #expect(result.files.map { $0 == expected } == [true])
    }

    @Test(arguments: sizes)
    func ymodemArrivesExactly(size: Int) {
        let file = TransferFile(
            name: "image.bin", data: randomBytes(size), modificationTime: 1_700_000_000, mode: 0o644)
        var link = Self.link(.ymodem, [file])
        let result = link.run()
        #expect(result.sent.map(Self.brief) == "completed 1")
        #expect(result.received.map(Self.brief) == "completed 1")
        #expect(result.files.map { $0 == file } == [true])
    }

    /// A batch of several files, an empty one among them, and the empty batch.
    @Test func ymodemBatch() {
        let files = [
            TransferFile(name: "a", data: randomBytes(1025, seed: 1)), TransferFile(name: "empty", data: []),
            TransferFile(name: "c", data: randomBytes(129, seed: 3)),
        ]
        var link = Self.link(.ymodem, files)
        let result = link.run()
        #expect(result.received.map(Self.brief) == "completed 3")
        #expect(result.sent.map(Self.brief) == "completed 3")
        #expect(result.files.map(\.name) == ["a", "empty", "c"])
        #expect(result.files.map(\.data) == files.map(\.data), "compared in full: only 1154 bytes")
        var empty = Self.link(.ymodem, [])
        #expect(empty.run().received == .completed(files: []))
    }

    /// Noise on both directions (CRC-16): the file arrives identical, or the transfer
    /// fails — never a completed transfer with other bytes.
    @Test(arguments: [TransferProtocol.xmodemCRC, .xmodem1K, .ymodem], [UInt64(1), 2, 3, 4, 5, 6])
    func noisyLineNeverDeliversAWrongFile(kind: TransferProtocol, seed: UInt64) {
        let data = randomBytes(20_000, seed: seed)
        let noise = TransferLink.Noise(drop: 0.000_3, duplicate: 0.000_3, corrupt: 0.000_3, seed: seed)
        var link = Self.link(kind, [TransferFile(name: "f", data: data)], noise: noise)
        let result = link.run()
        let expected = kind.isBatch ? data : Self.padded(data, blockSize: kind.blockSize)
        #expect(result.sent != nil && result.received != nil)
        // Compared as Bools: a failure must not print 20 000 bytes.
        #expect(result.files.map { $0.data == expected } == [true])
        #expect(
            result.received.map(Self.brief) == "completed 1", "seed \(seed): \(String(describing: result.received))")
    }

    /// The checksum catches every single damaged byte and a lost one.
    @Test(arguments: [UInt64(7), 8, 9])
    func checksumOnANoisyLine(seed: UInt64) {
        let data = randomBytes(5_000, seed: seed)
        let noise = TransferLink.Noise(drop: 0.001, corrupt: 0.001, seed: seed)
        var link = Self.link(.xmodem, [TransferFile(name: "f", data: data)], noise: noise)
        let result = link.run()
        #expect(result.files.map { $0.data == Self.padded(data, blockSize: 128) } == [true])
        #expect(result.received.map(Self.brief) == "completed 1")
    }

    /// A line so bad no block gets through: both sides fail, nothing is received.
    @Test func hopelessLineFails() {
        let noise = TransferLink.Noise(corrupt: 0.05, seed: 11)
        var link = Self.link(.xmodem1K, [TransferFile(name: "f", data: randomBytes(10_000))], noise: noise)
        let result = link.run()
        #expect(result.files.isEmpty)
        guard case .failed = result.sent, case .failed = result.received else {
            Issue.record(
                "expected both sides to fail: \(String(describing: result.sent)) \(String(describing: result.received))"
            )
            return
        }
    }
}
