import Glibc
import Testing

@testable import TetherSerial

/// Exclusive access with flock.
@Suite struct SerialPortLockTests {
    /// `error` is `.busy` for `path`, naming this process (`"comm (pid N)"`).
    private func expectBusy(_ error: SerialError?, path: String) {
        guard case .busy(let busyPath, let holder) = error else {
            Issue.record("expected busy, got \(String(describing: error))")
            return
        }
        #expect(busyPath == path)
        #expect(holder?.hasSuffix(" (pid \(getpid()))") == true, "holder: \(holder ?? "nil")")
    }

    @Test func secondOpenIsBusyAndNamesUsThenSucceedsAfterClose() throws {
        let pty = try PseudoTerminal()
        let first = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration(baudRate: 115_200))
        let error = #expect(throws: SerialError.self) {
            try SerialPort.open(pty.slavePath, configuration: SerialConfiguration(baudRate: 9600))
        }
        expectBusy(error, path: pty.slavePath)
        // The refused open changed nothing: the first user's settings stand.
        #expect(pty.outputBaudRate() == 115_200)
        #expect(!isSet(pty.settings().c_cflag, HUPCL))
        first.close()
        let second = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration(baudRate: 9600))
        defer { second.close() }
        #expect(pty.outputBaudRate() == 9600)
    }

    /// A picocom-style holder: flock on a separate open of the node.
    @Test func flockHeldElsewhereMakesThePortBusy() throws {
        let pty = try PseudoTerminal()
        let holder = open(pty.slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(holder >= 0)
        #expect(flock(holder, LOCK_EX) == 0)
        let error = #expect(throws: SerialError.self) {
            try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        }
        expectBusy(error, path: pty.slavePath)
        close(holder)
        let port = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        port.close()
    }

    @Test func nonExclusiveOpenIgnoresTheLock() throws {
        let pty = try PseudoTerminal()
        let first = try SerialPort.open(pty.slavePath, configuration: SerialConfiguration())
        defer { first.close() }
        let second = try SerialPort.open(
            pty.slavePath, configuration: SerialConfiguration(), options: .init(exclusive: false))
        defer { second.close() }
        // Both are open and usable: each writes, the device receives both.
        try first.write([0x41], timeout: 1000)
        try second.write([0x42], timeout: 1000)
        #expect(pty.receive(count: 2) == [0x41, 0x42])
    }

    @Test func holderPIDIsParsedFromProcLocks() {
        let locks = """
            1: POSIX  ADVISORY  WRITE 812 00:1a:933 0 EOF
            2: FLOCK  ADVISORY  WRITE 4242 00:1a:7 0 EOF
            2: -> FLOCK  ADVISORY  WRITE 5151 00:1a:5 0 EOF
            3: FLOCK  ADVISORY  WRITE 1234 00:1a:5 0 EOF
            4: FLOCK  ADVISORY  WRITE 99 fd:01:5 0 EOF
            """
        #expect(PortLock.holderPID(inLocks: locks, major: 0, minor: 0x1a, inode: 5) == 1234)
        #expect(PortLock.holderPID(inLocks: locks, major: 0xfd, minor: 1, inode: 5) == 99)
        #expect(PortLock.holderPID(inLocks: locks, major: 0, minor: 0x1a, inode: 933) == nil)
        #expect(PortLock.holderPID(inLocks: "", major: 0, minor: 0x1a, inode: 5) == nil)
    }
}
