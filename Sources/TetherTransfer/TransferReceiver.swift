/// The receiving side of XMODEM (checksum, CRC-16, 1K) and YMODEM, as a pure state
/// machine (``TransferMachine``).
///
/// It asks for the first block — NAK for `xmodem` (checksum), `C` for the others
/// (CRC-16) — every ``TransferLimits/requestInterval``, up to
/// ``TransferLimits/requestLimit`` times. It takes 128- and 1024-byte blocks alike;
/// each good block is acknowledged (ACK), a repeated one (its ACK was lost) is
/// acknowledged again and dropped, one out of sequence cancels the transfer. A damaged
/// block (wrong complement or check, or a gap of ``TransferLimits/byteTimeout``
/// inside it) and a block that does not come within
/// ``TransferLimits/requestInterval`` are asked for again with NAK — after a damaged
/// one, once the line has been quiet for ``TransferLimits/byteTimeout``, so the rest
/// of it is not taken for a block — up to ``TransferLimits/retryLimit`` times. The
/// first EOT is answered NAK, the EOT sent again ACK (a damaged byte is not taken for
/// the end). Two CAN in a row where a block may begin end the transfer.
///
/// YMODEM: block 0 names each file and its size (``YModemHeader``); after its ACK a
/// `C` asks for the data, and after each file's EOT a `C` asks for the next block 0;
/// an empty block 0 ends the batch. A file is cut to the size block 0 gave; shorter
/// than that, the transfer fails. XMODEM's file keeps the last block's padding.
public struct TransferReceiver: TransferMachine {
    private enum Phase: Equatable {
        /// Where a block, EOT or CAN may begin.
        case betweenBlocks
        /// Inside a block of `length` bytes on the wire (``buffer`` holds its start).
        case inBlock(length: Int)
        /// After a damaged block: dropping bytes until the line is quiet, then NAK.
        case purging
        case finished
    }

    /// The protocol spoken.
    public let transferProtocol: TransferProtocol
    /// The limits applied.
    public let limits: TransferLimits
    private var phase = Phase.betweenBlocks
    private var deadline: ContinuousClock.Instant?
    private var buffer: [UInt8] = []
    /// Still asking with `C`/NAK for the first block of what comes next (a file's first
    /// block, or YMODEM's block 0).
    private var isRequesting = true
    /// YMODEM: the next block is a block 0.
    private var awaitsHeader: Bool
    /// Requests or NAKs sent for the block awaited.
    private var tries = 0
    private var expected: UInt8
    /// The current file's data blocks accepted, counted from 1.
    private var blocks = 0
    private var retries = 0
    private var cancelBytes = 0
    private var hasSeenEndOfFile = false
    private var file = TransferFile(name: nil, data: [])
    private var size: Int?
    private var files: [TransferFile] = []

    /// A receiver of one file (XMODEM) or of a batch (YMODEM).
    public init(_ transferProtocol: TransferProtocol, limits: TransferLimits = TransferLimits()) {
        self.transferProtocol = transferProtocol
        self.limits = limits
        awaitsHeader = transferProtocol.isBatch
        expected = transferProtocol.isBatch ? 0 : 1
    }

    public var nextDeadline: ContinuousClock.Instant? { isFinished ? nil : deadline }

    public var isFinished: Bool { phase == .finished }

    private var request: UInt8 { transferProtocol.check == .crc16 ? ControlByte.crcRequest : ControlByte.nak }

    public mutating func start(now: ContinuousClock.Instant) -> [TransferAction] {
        ask(now: now)
    }

    public mutating func receive(_ bytes: [UInt8], now: ContinuousClock.Instant) -> [TransferAction] {
        var actions: [TransferAction] = []
        var index = bytes.startIndex
        while index < bytes.endIndex, !isFinished {
            switch phase {
            case .finished:
                return actions
            case .purging:
                cancelBytes = bytes[index] == ControlByte.can ? cancelBytes + 1 : 0
                if cancelBytes >= 2 { return actions + [finish(.failed(.cancelledByPeer))] }
                deadline = now + limits.byteTimeout
                index += 1
            case .inBlock(let length):
                let taken = min(length - buffer.count, bytes.endIndex - index)
                buffer += bytes[index..<(index + taken)]
                index += taken
                deadline = now + limits.byteTimeout
                guard buffer.count == length else { break }
                // Bytes right behind a block in the same read: no sender sends before
                // the ACK, so a byte was duplicated or the block is shifted — damaged.
                if index < bytes.endIndex {
                    buffer.removeAll(keepingCapacity: true)
                    phase = .purging
                    continue
                }
                actions += blockArrived(now: now)
            case .betweenBlocks:
                actions += begin(bytes[index], now: now)
                index += 1
            }
        }
        return actions
    }

    public mutating func expire(now: ContinuousClock.Instant) -> [TransferAction] {
        guard let deadline, deadline <= now else { return [] }
        switch phase {
        case .finished:
            return []
        case .inBlock, .purging:
            return askAgain(now: now)
        case .betweenBlocks:
            guard isRequesting else { return askAgain(now: now) }
            guard tries < limits.requestLimit else {
                // The sender stopped after a whole file without ending the batch.
                if awaitsHeader && !files.isEmpty { return [finish(.completed(files: files))] }
                if !awaitsHeader && transferProtocol.isBatch { return cancel(with: .tooManyRetries(block: 1)) }
                return [finish(.failed(.senderNeverStarted(requests: tries)))]
            }
            return ask(now: now)
        }
    }

    public mutating func cancel(now: ContinuousClock.Instant) -> [TransferAction] {
        guard !isFinished else { return [] }
        return [.write(ControlByte.cancelSequence), finish(.failed(.cancelled))]
    }

    // MARK: - Steps

    /// Sends the request for what comes next (`C` or NAK).
    private mutating func ask(now: ContinuousClock.Instant) -> [TransferAction] {
        tries += 1
        deadline = now + limits.requestInterval
        return [.write([request])]
    }

    /// The block awaited did not come, or came damaged: NAK, once more.
    private mutating func askAgain(now: ContinuousClock.Instant) -> [TransferAction] {
        phase = .betweenBlocks
        buffer.removeAll(keepingCapacity: true)
        guard tries < limits.retryLimit else { return cancel(with: .tooManyRetries(block: blocks + 1)) }
        tries += 1
        retries += 1
        deadline = now + limits.requestInterval
        return [.write([isRequesting ? request : ControlByte.nak])]
    }

    /// A byte where a block may begin.
    private mutating func begin(_ byte: UInt8, now: ContinuousClock.Instant) -> [TransferAction] {
        cancelBytes = byte == ControlByte.can ? cancelBytes + 1 : 0
        if cancelBytes >= 2 { return [finish(.failed(.cancelledByPeer))] }
        if byte == ControlByte.can { return [] }
        if let length = Block.wireLength(header: byte, check: transferProtocol.check) {
            buffer = [byte]
            buffer.reserveCapacity(length)
            phase = .inBlock(length: length)
            deadline = now + limits.byteTimeout
            return []
        }
        if byte == ControlByte.eot { return endOfFile(now: now) }
        // Noise, or the rest of a block whose start was lost: wait for quiet, then NAK.
        phase = .purging
        deadline = now + limits.byteTimeout
        return []
    }

    private mutating func endOfFile(now: ContinuousClock.Instant) -> [TransferAction] {
        guard awaitsHeader else { return acknowledgeEndOfFile(now: now) }
        // The previous file's EOT again (its ACK was lost), or noise before block 0.
        return files.isEmpty ? [] : [.write([ControlByte.ack])]
    }

    /// NAKs the first EOT, acknowledges the second and ends the file.
    private mutating func acknowledgeEndOfFile(now: ContinuousClock.Instant) -> [TransferAction] {
        guard hasSeenEndOfFile else {
            hasSeenEndOfFile = true
            deadline = now + limits.requestInterval
            return [.write([ControlByte.nak])]
        }
        if let size {
            guard file.data.count >= size else {
                return cancel(
                    with: .protocolViolation("the file ended after \(file.data.count) bytes; block 0 said \(size)"))
            }
            file.data.removeLast(file.data.count - size)
        }
        let done = file
        files.append(done)
        var actions: [TransferAction] = [.write([ControlByte.ack]), .report(.received(done))]
        guard transferProtocol.isBatch else { return actions + [finish(.completed(files: files))] }
        nextFile()
        actions += ask(now: now)
        return actions
    }

    /// Ready for the next block 0.
    private mutating func nextFile() {
        file = TransferFile(name: nil, data: [])
        size = nil
        blocks = 0
        tries = 0
        expected = 0
        awaitsHeader = true
        isRequesting = true
        hasSeenEndOfFile = false
    }

    /// A whole block's bytes are in ``buffer``.
    private mutating func blockArrived(now: ContinuousClock.Instant) -> [TransferAction] {
        phase = .betweenBlocks
        let decoded = Block.decode(buffer[...], check: transferProtocol.check)
        buffer.removeAll(keepingCapacity: true)
        guard case .block(let block) = decoded else {
            phase = .purging
            deadline = now + limits.byteTimeout
            return []
        }
        hasSeenEndOfFile = false
        if !awaitsHeader, block.number == expected &- 1, blocks > 0 || transferProtocol.isBatch {
            // Sent again because our ACK was lost: acknowledged again (block 0 with
            // its `C` again), not taken twice.
            deadline = now + limits.requestInterval
            return [.write(blocks > 0 ? [ControlByte.ack] : [ControlByte.ack, request])]
        }
        guard block.number == expected else {
            return cancel(with: .protocolViolation("block \(block.number) out of sequence (expected \(expected))"))
        }
        if awaitsHeader { return headerArrived(block, now: now) }
        tries = 0
        isRequesting = false
        blocks += 1
        expected &+= 1
        file.data += block.data
        deadline = now + limits.requestInterval
        let progress = TransferProgress(bytes: min(file.data.count, size ?? .max), total: size, retries: retries)
        return [.write([ControlByte.ack]), .report(.progress(progress))]
    }

    private mutating func headerArrived(_ block: Block, now: ContinuousClock.Instant) -> [TransferAction] {
        switch YModemHeader.parse(block.data) {
        case nil:
            return cancel(with: .protocolViolation("block 0 is not a YMODEM file header"))
        case .endOfBatch:
            return [.write([ControlByte.ack]), finish(.completed(files: files))]
        case .file(let name, let size, let time, let mode):
            file = TransferFile(name: name, data: [], modificationTime: time, mode: mode)
            self.size = size
            if let size { file.data.reserveCapacity(size + Block.longSize) }
            awaitsHeader = false
            expected = 1
            tries = 0
            let actions: [TransferAction] = [.write([ControlByte.ack]), .report(.started(name: name, size: size))]
            return actions + ask(now: now)
        }
    }

    private mutating func cancel(with failure: TransferFailure) -> [TransferAction] {
        [.write(ControlByte.cancelSequence), finish(.failed(failure))]
    }

    private mutating func finish(_ outcome: TransferOutcome) -> TransferAction {
        phase = .finished
        deadline = nil
        return .finished(outcome)
    }
}
