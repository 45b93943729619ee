import Foundation
import Synchronization
import Testing
import TetherTransfer

@testable import TetherConsole

/// The escape key's file transfers (`y`, `x`, `Y`): the device's transfer against a
/// peer machine, its status lines on the terminal, the last line, and Ctrl-C.
@Suite struct ConsoleTransferTests {
    typealias Harness = ConsoleTests.Harness

    /// `y` then a file: sent by YMODEM; the terminal shows its start, the bar and the
    /// last line after the transfer's end.
    @Test func sendsAFileByYModem() async throws {
        let folder = try TemporaryFolder()
        let data = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(data).write(to: URL(fileURLWithPath: folder.path("image.bin")))
        let harness = Harness(device: RecordingDevice(peer: TransferReceiver(.ymodem)))
        _ = await harness.run([.sendByProtocol(path: folder.path("image.bin"), protocol: .ymodem)])
        guard case .completed(let files) = harness.device.peerOutcome else {
            Issue.record("the peer did not complete")
            return
        }
        #expect(files.map(\.name) == ["image.bin"])
        #expect(files.first?.data == data)
        let shown = harness.screen.shown
        #expect(shown.contains(.transfer("Sending image.bin by ymodem: waiting for the receiver (Ctrl-C cancels)")))
        #expect(shown.contains(.transfer("Sending image.bin by ymodem (2.9 KiB)")))
        #expect(
            shown.contains {
                if case .transfer(let line) = $0 { line.contains("[########################] 100%") } else { false }
            })
        let end = try #require(shown.firstIndex(of: .transferEnded))
        guard case .lines(let last) = shown[end + 1] else { Issue.record("\(shown)"); return }
        #expect(last.hasPrefix("Sent 1 file by ymodem in "), "\(last)")
    }

    /// `Y`: files received by YMODEM are written into the folder (the current one) as
    /// they arrive, an existing one kept.
    @Test func receivesIntoTheFolder() async throws {
        let folder = try TemporaryFolder()
        try Data([1]).write(to: URL(fileURLWithPath: folder.path("log.txt")))
        let file = TransferFile(name: "log.txt", data: Array("hello\n".utf8))
        let harness = Harness(device: RecordingDevice(peer: TransferSender(.ymodem, files: [file])))
        await harness.console.receiveFiles(by: .ymodem, into: folder.path)
        #expect(FileManager.default.contents(atPath: folder.path("log.txt.1")) == Data("hello\n".utf8))
        #expect(
            harness.screen.text.contains(
                "received \(folder.path("log.txt.1")) (6 bytes)\nReceived 1 file by ymodem in "))
    }

    /// A file that cannot be read ends the transfer at once, with the reason.
    @Test func unreadableFileSendsNothing() async {
        let harness = Harness(device: RecordingDevice(peer: TransferReceiver(.xmodem1K)))
        _ = await harness.run([.sendByProtocol(path: "/nonexistent/a.bin", protocol: .xmodem1K)])
        #expect(harness.screen.shown.contains(.transferEnded))
        #expect(
            harness.screen.text.contains(
                "cannot read '/nonexistent/a.bin': No such file or directory; nothing sent\n"))
        #expect(harness.device.transferWrites.withLock { $0 }.isEmpty)
    }

    /// Ctrl-C during a transfer cancels it: CAN CAN goes out, the last line says so,
    /// and the session goes on.
    @Test func ctrlCCancels() async throws {
        let folder = try TemporaryFolder()
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder.path("a.bin")))
        let harness = Harness()
        harness.screen.type(.sendByProtocol(path: folder.path("a.bin"), protocol: .ymodem))
        let session = Task { await harness.console.run() }
        let deadline = ContinuousClock.now + .seconds(30)
        while !harness.screen.canCancelTransfer && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        harness.screen.cancelTransfer()
        harness.screen.type(.line("after"), finish: true)
        #expect(await session.value == .inputEnded)
        #expect(harness.device.transferWrites.withLock { $0 }.starts(with: [0x18, 0x18]))
        #expect(harness.screen.text.contains("transfer failed after 0 B: cancelled\n"))
        #expect(harness.device.sentItems == [.line(Array("after".utf8), timeout: .milliseconds(500))])
    }
}

/// Tab and `~` at the questions that ask for a path.
@Suite struct PathCompletionTests {
    @Test func oneMatchIsCompletedAndAFolderGetsItsSlash() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("images"), withIntermediateDirectories: false)
        try Data().write(to: URL(fileURLWithPath: folder.path("images/u-boot.img")))
        #expect(PathCompletion.complete(folder.path("im")) == .init(added: "ages/", candidates: []))
        #expect(PathCompletion.complete(folder.path("images/u")) == .init(added: "-boot.img", candidates: []))
        #expect(PathCompletion.complete(folder.path("x")) == .init(added: "", candidates: []))
    }

    @Test func severalMatchesAddWhatTheyShareAndAreListed() throws {
        let folder = try TemporaryFolder()
        for name in ["fw-1.bin", "fw-2.bin", ".fw-hidden"] {
            try Data().write(to: URL(fileURLWithPath: folder.path(name)))
        }
        #expect(PathCompletion.complete(folder.path("f")) == .init(added: "w-", candidates: ["fw-1.bin", "fw-2.bin"]))
        #expect(PathCompletion.complete(folder.path(".f")) == .init(added: "w-hidden", candidates: []))
    }

    @Test func tildeIsTheHomeFolder() throws {
        let home = try TemporaryFolder()
        try Data().write(to: URL(fileURLWithPath: home.path("image.bin")))
        #expect(PathCompletion.expandingTilde("~/image.bin", home: home.path) == home.path("image.bin"))
        #expect(PathCompletion.expandingTilde("~", home: home.path) == home.path)
        #expect(PathCompletion.expandingTilde("a/~/b", home: home.path) == "a/~/b")
        #expect(PathCompletion.expandingTilde("~root/x") == "/root/x")
        #expect(PathCompletion.complete("~/ima", home: home.path) == .init(added: "ge.bin", candidates: []))
        #expect(PathCompletion.complete("~", home: home.path) == .init(added: "/", candidates: []))
    }
}
