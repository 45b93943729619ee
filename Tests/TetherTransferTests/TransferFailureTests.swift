import Testing
import TetherTransfer

/// Each limit and each way a transfer ends early, against one side fed by hand.
@Suite struct TransferFailureTests {
    let start = ContinuousClock.now

    func writes(_ actions: [TransferAction]) -> [UInt8] {
        actions.flatMap { action -> [UInt8] in
            if case .write(let bytes) = action { return bytes }
            return []
        }
    }

    func outcome(_ actions: [TransferAction]) -> TransferOutcome? {
        actions.lazy.compactMap { action -> TransferOutcome? in
            if case .finished(let outcome) = action { return outcome }
            return nil
        }.first
    }

    /// No `C` or NAK in 60 s: the receiver never started.
    @Test func receiverNeverStarts() {
        var sender = TransferSender(.ymodem, files: [TransferFile(name: "a", data: [1])])
        #expect(sender.start(now: start).isEmpty)
        #expect(sender.nextDeadline == start + .seconds(60))
        #expect(sender.expire(now: start + .seconds(59)).isEmpty)
        #expect(
            outcome(sender.expire(now: start + .seconds(60))) == .failed(.receiverNeverStarted(waited: .seconds(60))))
        #expect(sender.isFinished && sender.nextDeadline == nil)
    }

    /// A banner before the `C` is ignored; the `C` gets block 0.
    @Test func senderIgnoresABannerBeforeTheRequest() {
        var sender = TransferSender(.ymodem, files: [TransferFile(name: "a", data: [1])])
        _ = sender.start(now: start)
        #expect(sender.receive(Array("## Ready for binary (ymodem) download\r\n".utf8), now: start).isEmpty)
        let block = writes(sender.receive([0x43], now: start))
        #expect(block.count == 133 && block[0] == 0x01 && block[1] == 0 && block[3] == UInt8(ascii: "a"))
    }

    /// The receiver asks 10 times, 10 s apart, then gives up.
    @Test func senderNeverStarts() {
        var receiver = TransferReceiver(.xmodemCRC)
        var written = writes(receiver.start(now: start))
        var now = start
        var last: TransferOutcome?
        while let deadline = receiver.nextDeadline {
            #expect(deadline == now + .seconds(10))
            now = deadline
            let actions = receiver.expire(now: now)
            written += writes(actions)
            last = outcome(actions) ?? last
        }
        #expect(written == Array(repeating: 0x43, count: 10))
        #expect(last == .failed(.senderNeverStarted(requests: 10)))
        #expect(now == start + .seconds(100))
    }

    /// The retries made after the last block was acknowledged count in the last
    /// progress: no answer to the first EOT (sent again once waited out), then the ACK.
    /// `tether send --sim --drop 0.3` said `0 retries` after 30 s of such waits.
    @Test func retriesAfterTheLastBlockAreInTheLastProgress() {
        var sender = TransferSender(.xmodemCRC, files: [TransferFile(name: "a", data: [1, 2, 3])])
        _ = sender.start(now: start)
        _ = sender.receive([0x43], now: start)
        let afterBlock = sender.receive([0x06], now: start)
        #expect(writes(afterBlock) == [0x04], "EOT after the block")
        let deadline = sender.nextDeadline ?? start
        #expect(writes(sender.expire(now: deadline)) == [0x04], "EOT again")
        let actions = sender.receive([0x06], now: deadline)
        let last = actions.compactMap { action -> TransferProgress? in
            if case .report(.progress(let progress)) = action { progress } else { nil }
        }.last
        #expect(last == TransferProgress(bytes: 3, total: 3, retries: 1))
        #expect(outcome(actions) == .completed(files: [TransferFile(name: "a", data: [1, 2, 3])]))
    }

    /// CAN CAN from the receiver ends the sender, not a lone CAN.
    @Test func receiverCancels() {
        var sender = TransferSender(.xmodem1K, files: [TransferFile(name: "a", data: randomBytes(3000))])
        _ = sender.start(now: start)
        _ = sender.receive([0x43], now: start)
        #expect(outcome(sender.receive([0x18, 0x15], now: start)) == nil)
        #expect(outcome(sender.receive([0x18, 0x18], now: start)) == .failed(.cancelledByPeer))
    }

    /// CAN CAN where a block may begin ends the receiver; inside a block it is data.
    @Test func senderCancels() {
        var receiver = TransferReceiver(.xmodemCRC)
        _ = receiver.start(now: start)
        let block = Block(number: 1, data: [0x18, 0x18, 0x18][...], size: 128).encoded(with: .crc16)
        #expect(writes(receiver.receive(block, now: start)) == [0x06])
        #expect(outcome(receiver.receive([0x18, 0x18], now: start)) == .failed(.cancelledByPeer))
    }

    /// Cancelling here writes the cancel sequence, and the peer sees it as a cancel.
    @Test func localCancelReachesThePeer() {
        var sender = TransferSender(.xmodem, files: [TransferFile(name: "a", data: [1, 2])])
        var receiver = TransferReceiver(.xmodem)
        _ = sender.start(now: start)
        _ = sender.receive(writes(receiver.start(now: start)), now: start)
        let actions = sender.cancel(now: start)
        #expect(writes(actions) == ControlByte.cancelSequence)
        #expect(outcome(actions) == .failed(.cancelled))
        #expect(outcome(receiver.receive(writes(actions), now: start)) == .failed(.cancelledByPeer))
        #expect(sender.cancel(now: start).isEmpty)
    }

    /// NAK after NAK: the block is sent 11 times, then the sender cancels.
    @Test func tooManyRetries() {
        var sender = TransferSender(.xmodemCRC, files: [TransferFile(name: "a", data: [1])])
        _ = sender.start(now: start)
        var sends = writes(sender.receive([0x43], now: start)).count / 133
        var last: TransferOutcome?
        for _ in 0..<11 where last == nil {
            let actions = sender.receive([0x15], now: start)
            last = outcome(actions)
            if last == nil { sends += writes(actions).count / 133 }
        }
        #expect(sends == 11)
        #expect(last == .failed(.tooManyRetries(block: 1)))
    }

    /// A block out of sequence cancels the transfer; a repeated one is acknowledged.
    @Test func blockOutOfSequence() {
        var receiver = TransferReceiver(.xmodemCRC)
        _ = receiver.start(now: start)
        let one = Block(number: 1, data: [1][...], size: 128).encoded(with: .crc16)
        #expect(writes(receiver.receive(one, now: start)) == [0x06])
        #expect(writes(receiver.receive(one, now: start)) == [0x06])
        let three = Block(number: 3, data: [3][...], size: 128).encoded(with: .crc16)
        let actions = receiver.receive(three, now: start)
        #expect(writes(actions) == ControlByte.cancelSequence)
        #expect(outcome(actions) == .failed(.protocolViolation("block 3 out of sequence (expected 2)")))
    }

    /// A file shorter than block 0 said fails; it is never reported received.
    @Test func fileShorterThanItsHeader() {
        var receiver = TransferReceiver(.ymodem)
        _ = receiver.start(now: start)
        let header = YModemHeader.data(for: TransferFile(name: "a", data: Array(repeating: 0, count: 2000)))
        #expect(
            writes(
                receiver.receive(
                    Block(number: 0, data: header[...], size: 128, padding: 0).encoded(with: .crc16), now: start)) == [
                    0x06, 0x43,
                ])
        _ = receiver.receive(
            Block(number: 1, data: Array(repeating: 7, count: 1024)[...], size: 1024).encoded(with: .crc16), now: start)
        #expect(writes(receiver.receive([0x04], now: start)) == [0x15])
        let actions = receiver.receive([0x04], now: start)
        #expect(outcome(actions) == .failed(.protocolViolation("the file ended after 1024 bytes; block 0 said 2000")))
        #expect(!actions.contains { if case .report(.received) = $0 { true } else { false } })
    }

    /// A block with a gap of 1 s inside is given up and asked for again once quiet.
    @Test func gapInsideABlock() {
        var receiver = TransferReceiver(.xmodemCRC)
        _ = receiver.start(now: start)
        let block = Block(number: 1, data: [9][...], size: 128).encoded(with: .crc16)
        #expect(receiver.receive(Array(block.prefix(50)), now: start).isEmpty)
        #expect(receiver.nextDeadline == start + .seconds(1))
        #expect(writes(receiver.expire(now: start + .seconds(1))) == [0x43])
        #expect(writes(receiver.receive(block, now: start + .seconds(2))) == [0x06])
    }
}
