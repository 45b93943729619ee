/// The sending side of XMODEM (checksum, CRC-16, 1K) and YMODEM, as a pure state
/// machine (``TransferMachine``).
///
/// It waits for the receiver's first request — `C` for CRC-16, NAK for the checksum
/// (1024-byte blocks need CRC-16, so a NAK gets 128-byte blocks) — for up to
/// ``TransferLimits/startTimeout``, ignoring any other byte (a bootloader's banner).
/// Then each block is sent and waits for ACK; a NAK or ``TransferLimits/acknowledgementTimeout``
/// without an answer sends it again, up to ``TransferLimits/retryLimit`` times. A last
/// piece of 128 bytes or less goes in a 128-byte block. The file ends with EOT, sent
/// again until it is acknowledged. YMODEM announces each file with block 0 and waits
/// for the receiver's `C` before its data and before the next block 0; the batch ends
/// with an empty block 0. Two CAN in a row from the receiver end the transfer.
///
/// The transfer is complete only when the receiver acknowledged every file's EOT, so
/// a file is never reported sent that the receiver did not confirm.
public struct TransferSender: TransferMachine {
    /// What was sent last and waits for the receiver's answer.
    private enum Sent: Equatable {
        /// YMODEM block 0 of file `file`, or the empty one (`file == files.count`).
        case header(file: Int)
        /// Data block `number` (from 1) of the current file: `count` bytes at `offset`.
        case data(number: Int, offset: Int, count: Int)
        /// EOT of the current file.
        case endOfFile
    }

    /// What the sender waits for.
    private enum Phase: Equatable {
        /// The receiver's first `C` or NAK.
        case waitingForReceiver
        /// ACK (or NAK) of what was sent, `tries` sends so far.
        case awaitingAcknowledgement(Sent, tries: Int)
        /// YMODEM: the receiver's `C` before `next` is sent.
        case awaitingRequest(next: Sent)
        case finished
    }

    /// The protocol spoken.
    public let transferProtocol: TransferProtocol
    /// The limits applied.
    public let limits: TransferLimits
    private let files: [TransferFile]
    private var fileIndex = 0
    private var phase = Phase.waitingForReceiver
    private var check = BlockCheck.crc16
    private var blockSize = Block.longSize
    private var deadline: ContinuousClock.Instant?
    private var retries = 0
    /// ``retries`` as the last progress report gave it.
    private var reportedRetries = 0
    private var cancelBytes = 0

    /// A sender of `files`: exactly one for XMODEM, any number (none: an empty batch)
    /// for YMODEM.
    public init(
        _ transferProtocol: TransferProtocol, files: [TransferFile], limits: TransferLimits = TransferLimits()
    ) {
        precondition(transferProtocol.isBatch || files.count == 1, "XMODEM sends exactly one file")
        self.transferProtocol = transferProtocol
        self.files = files
        self.limits = limits
    }

    public var nextDeadline: ContinuousClock.Instant? { isFinished ? nil : deadline }

    public var isFinished: Bool { phase == .finished }

    public mutating func start(now: ContinuousClock.Instant) -> [TransferAction] {
        deadline = now + limits.startTimeout
        return []
    }

    public mutating func receive(_ bytes: [UInt8], now: ContinuousClock.Instant) -> [TransferAction] {
        var actions: [TransferAction] = []
        for byte in bytes where !isFinished {
            cancelBytes = byte == ControlByte.can ? cancelBytes + 1 : 0
            if cancelBytes >= 2 {
                actions.append(finish(.failed(.cancelledByPeer)))
                break
            }
            let answered = handle(byte, now: now)
            actions += answered
            // What came with the answer to a block cannot answer the block just sent
            // (a duplicated ACK would acknowledge it unseen): it is dropped, as a
            // sender purges its input before each block. YMODEM's `ACK C` stays whole.
            if !answered.isEmpty, case .awaitingAcknowledgement = phase { break }
        }
        return actions
    }

    public mutating func expire(now: ContinuousClock.Instant) -> [TransferAction] {
        guard let deadline, deadline <= now else { return [] }
        switch phase {
        case .finished:
            return []
        case .waitingForReceiver:
            return [finish(.failed(.receiverNeverStarted(waited: limits.startTimeout)))]
        case .awaitingAcknowledgement(let sent, let tries):
            if sent == .header(file: files.count) { return complete() }
            return resend(sent, tries: tries, timedOut: true, now: now)
        case .awaitingRequest(let next):
            // The receiver's `C` was lost: go on as if it had come.
            retries += 1
            return send(next, tries: 1, now: now)
        }
    }

    public mutating func cancel(now: ContinuousClock.Instant) -> [TransferAction] {
        guard !isFinished else { return [] }
        return [.write(ControlByte.cancelSequence), finish(.failed(.cancelled))]
    }

    // MARK: - Steps

    private mutating func handle(_ byte: UInt8, now: ContinuousClock.Instant) -> [TransferAction] {
        switch phase {
        case .finished:
            return []
        case .waitingForReceiver:
            switch byte {
            case ControlByte.crcRequest: check = .crc16
            case ControlByte.nak: check = .checksum
            default: return []
            }
            blockSize = check == .crc16 ? transferProtocol.blockSize : Block.shortSize
            return begin(now: now)
        case .awaitingRequest(let next):
            guard byte == ControlByte.crcRequest || byte == ControlByte.nak else { return [] }
            return send(next, tries: 1, now: now)
        case .awaitingAcknowledgement(let sent, let tries):
            switch byte {
            case ControlByte.ack: return acknowledged(sent, now: now)
            case ControlByte.nak: return resend(sent, tries: tries, now: now)
            default: return []
            }
        }
    }

    /// The receiver asked for the first block.
    private mutating func begin(now: ContinuousClock.Instant) -> [TransferAction] {
        if transferProtocol.isBatch { return send(.header(file: 0), tries: 1, now: now) }
        return [.report(.started(name: files[0].name, size: files[0].data.count))]
            + sendData(from: 0, number: 1, now: now)
    }

    private mutating func acknowledged(_ sent: Sent, now: ContinuousClock.Instant) -> [TransferAction] {
        switch sent {
        case .header(let file):
            guard file < files.count else { return complete() }
            fileIndex = file
            let started = TransferAction.report(.started(name: files[file].name, size: files[file].data.count))
            return [started] + wait(for: firstData(), now: now)
        case .data(let number, let offset, let count):
            let file = files[fileIndex]
            let progress = TransferProgress(
                bytes: min(offset + count, file.data.count), total: file.data.count, retries: retries)
            reportedRetries = retries
            return [.report(.progress(progress))] + sendData(from: offset + count, number: number + 1, now: now)
        case .endOfFile:
            guard transferProtocol.isBatch else { return complete() }
            fileIndex += 1
            return wait(for: .header(file: fileIndex), now: now)
        }
    }

    /// The first thing sent of the current file's data.
    private func firstData() -> Sent {
        files[fileIndex].data.isEmpty ? .endOfFile : dataBlock(from: 0, number: 1)
    }

    private func dataBlock(from offset: Int, number: Int) -> Sent {
        .data(number: number, offset: offset, count: min(files[fileIndex].data.count - offset, blockSize))
    }

    private mutating func sendData(from offset: Int, number: Int, now: ContinuousClock.Instant) -> [TransferAction] {
        let next = offset >= files[fileIndex].data.count ? Sent.endOfFile : dataBlock(from: offset, number: number)
        return send(next, tries: 1, now: now)
    }

    private mutating func wait(for next: Sent, now: ContinuousClock.Instant) -> [TransferAction] {
        phase = .awaitingRequest(next: next)
        deadline = now + limits.acknowledgementTimeout
        return []
    }

    private mutating func resend(
        _ sent: Sent, tries: Int, timedOut: Bool = false, now: ContinuousClock.Instant
    ) -> [TransferAction] {
        guard tries <= limits.retryLimit else {
            if sent == .header(file: files.count) { return complete() }
            return [.write(ControlByte.cancelSequence), finish(.failed(.tooManyRetries(block: blockNumber(of: sent))))]
        }
        // A NAK of the first EOT is the protocol's normal guard, not a retry; no answer
        // to it is one.
        if sent != .endOfFile || tries > 1 || timedOut { retries += 1 }
        return send(sent, tries: tries + 1, now: now)
    }

    private mutating func send(_ sent: Sent, tries: Int, now: ContinuousClock.Instant) -> [TransferAction] {
        let bytes: [UInt8]
        switch sent {
        case .header(let file):
            let data = YModemHeader.data(for: file < files.count ? files[file] : nil)
            bytes = Block(number: 0, data: data[...], size: data.count, padding: 0).encoded(with: check)
        case .data(let number, let offset, let count):
            let data = files[fileIndex].data[offset..<(offset + count)]
            let size = count <= Block.shortSize ? Block.shortSize : blockSize
            bytes = Block(number: UInt8(truncatingIfNeeded: number), data: data, size: size).encoded(with: check)
        case .endOfFile:
            bytes = [ControlByte.eot]
        }
        phase = .awaitingAcknowledgement(sent, tries: tries)
        deadline = now + limits.acknowledgementTimeout
        return [.write(bytes)]
    }

    private func blockNumber(of sent: Sent) -> Int {
        switch sent {
        case .header: 0
        case .data(let number, _, _): number
        case .endOfFile: (files[fileIndex].data.count + blockSize - 1) / blockSize + 1
        }
    }

    /// Ends the transfer as completed, after a last progress report when retries were
    /// made since the last one (a lost `C`, EOT sent again), so that the summary counts
    /// them too.
    private mutating func complete() -> [TransferAction] {
        let done = finish(.completed(files: files))
        guard retries != reportedRetries else { return [done] }
        let size = files.last?.data.count ?? 0
        return [.report(.progress(TransferProgress(bytes: size, total: size, retries: retries))), done]
    }

    private mutating func finish(_ outcome: TransferOutcome) -> TransferAction {
        phase = .finished
        deadline = nil
        return .finished(outcome)
    }
}
