import Foundation
import Glibc
import Testing

/// A real bootloader for the end-to-end tests: U-Boot 2023.01 (Debian's `u-boot-qemu`,
/// its `qemu_arm` build) on QEMU's emulated Arm board (`qemu-system-arm -M virt`, no
/// network, no disk), its console on a pseudo-terminal (`-serial pty`).
///
/// QEMU starts paused (`-S`) so that nothing of the boot log is lost before tether
/// opens the console; ``powerOn()`` lets the board run (the `cont` command on QEMU's
/// monitor, which is on QEMU's standard input). With no kernel to load, U-Boot counts
/// its `bootdelay` (2 s) down, tries its boot targets and stops at `=> `.
final class UBootBoard {
    static let firmware = "/usr/lib/u-boot/qemu_arm/u-boot.bin"
    static let emulator = "/usr/bin/qemu-system-arm"
    /// U-Boot's prompt.
    static let prompt = "=> "

    let qemu: Subprocess
    /// The console's pseudo-terminal (`/dev/pts/N`).
    let console: String

    init() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.emulator)
                && FileManager.default.fileExists(atPath: Self.firmware),
            "qemu-system-arm and u-boot-qemu are missing: scripts/install-deps --test installs them")
        let qemu = try Subprocess(
            path: Self.emulator,
            [
                "-M", "virt", "-m", "128", "-nographic", "-bios", Self.firmware, "-nic", "none", "-serial", "pty",
                "-monitor", "stdio", "-S",
            ])
        var console: String?
        _ = waitUntil(timeout: 30) {
            let said = qemu.stdoutSoFar + qemu.stderrSoFar
            guard let range = said.range(of: #"/dev/pts/[0-9]+"#, options: .regularExpression) else { return false }
            console = String(said[range])
            return true
        }
        self.qemu = qemu
        self.console = try #require(console, "QEMU named no console: \(qemu.stderrSoFar)")
    }

    /// Lets the paused board run: it boots from its reset vector.
    func powerOn() { qemu.write("cont\n") }

    /// Waits (at most `timeout` seconds) until U-Boot runs commands at its prompt:
    /// types `echo ready` until that is the reply. The first tries also stop the
    /// autoboot countdown and take what the console printed before (a transfer's summary).
    func waitUntilRunsCommands(timeout: Double = 90) -> Bool {
        waitUntil(timeout: timeout) {
            let result = try? Subprocess.run(
                "tether",
                [
                    "query", console, "--dialect", "prompt", "--prompt", Self.prompt, "--timeout", "3000",
                    "echo ready",
                ], timeout: 30)
            return result?.status == 0 && result?.stdout.contains("echo ready → ready ") == true
        }
    }

    /// U-Boot's `crc32` of `size` bytes at `address` (eight hex digits), asked once the
    /// board runs commands.
    func crc32(at address: String, size: Int) throws -> String? {
        guard waitUntilRunsCommands() else { return nil }
        let command = "crc32 \(address) \(String(size, radix: 16))"
        let result = try Subprocess.run(
            "tether",
            ["query", console, "--dialect", "prompt", "--prompt", Self.prompt, "--timeout", "10000", command],
            timeout: 30)
        guard let range = result.stdout.range(of: #"==> [0-9a-f]{8}"#, options: .regularExpression) else { return nil }
        return String(result.stdout[range].suffix(8))
    }

    deinit {
        qemu.write("quit\n")
        if !waitUntil(timeout: 5, { !qemu.isRunning }) { qemu.send(SIGKILL) }
        _ = qemu.wait(timeout: 10)
    }
}

/// The CRC-32 (ISO-HDLC, as zlib and U-Boot's `crc32` compute it) of `data`, as eight
/// hex digits: Python's `zlib.crc32`.
func zlibCRC32(_ data: Data) throws -> String {
    let folder = try TemporaryFolder()
    try data.write(to: folder.url.appendingPathComponent("data"))
    let result = try Subprocess.run(
        path: "/usr/bin/python3",
        ["-c", "import sys, zlib; print('%08x' % zlib.crc32(open(sys.argv[1], 'rb').read()))", folder.path("data")])
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}
