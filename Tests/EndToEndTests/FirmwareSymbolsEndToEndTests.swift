import Foundation
import Testing
import TetherSimulator

/// `tether monitor PORT --elf app.elf` on crash reports replayed through a pty in their
/// published formats — an ESP-IDF panic, a Zephyr fatal error, a Cortex-M fault dump —
/// whose addresses are in an ARM firmware built here with Debian's gcc-arm-none-eabi:
/// each address's frames are those `arm-none-eabi-addr2line -f -i` gives.
@Suite struct FirmwareSymbolsEndToEndTests {
    typealias Chunk = ScriptedDevice.Chunk

    /// A sensor task whose filter is inlined twice deep, and a fault handler.
    static let source = """
        static inline __attribute__((always_inline)) int clamp(int v) { return v > 100 ? 100 : v; }
        static inline __attribute__((always_inline)) int filter(int v) { return clamp(v * 3) + 1; }
        volatile int reading;
        __attribute__((noinline)) int sensor_task(int n) {
            int total = 0;
            for (int i = 0; i < n; i++) total += filter(reading + i);
            return total;
        }
        __attribute__((noinline)) void hard_fault(void) { *(volatile int *)0 = sensor_task(reading); }
        void _start(void) { for (;;) { reading = sensor_task(reading); hard_fault(); } }

        """

    /// The built firmware and the addresses the replayed reports name.
    struct Firmware {
        let folder: TemporaryFolder
        let path: String
        /// Instruction addresses inside the functions (some in inlined code).
        let addresses: [UInt64]

        init() throws {
            folder = try TemporaryFolder()
            try Data(FirmwareSymbolsEndToEndTests.source.utf8).write(to: URL(fileURLWithPath: folder.path("app.c")))
            path = folder.path("app.elf")
            let build = try Subprocess.run(
                path: "/usr/bin/env",
                [
                    "arm-none-eabi-gcc", "-mcpu=cortex-m4", "-mthumb", "-O2", "-g", "-nostdlib", "-ffreestanding",
                    "-o", path, folder.path("app.c"),
                ])
            try #require(build.status == 0, "\(build.stderr)")
            let nm = try Subprocess.run(path: "/usr/bin/env", ["arm-none-eabi-nm", "-S", path]).stdout
            let functions: [Range<UInt64>] = nm.split(separator: "\n").compactMap { line in
                let fields = line.split(separator: " ")
                guard fields.count == 4, fields[2] == "T", let start = UInt64(fields[0], radix: 16),
                    let size = UInt64(fields[1], radix: 16)
                else { return nil }
                return start..<start + size
            }
            let objdump = try Subprocess.run(path: "/usr/bin/env", ["arm-none-eabi-objdump", "-d", path]).stdout
            addresses = objdump.split(separator: "\n").compactMap { line -> UInt64? in
                guard line.hasPrefix(" "), let colon = line.firstIndex(of: ":"), !line.contains(".word") else {
                    return nil
                }
                return UInt64(line[..<colon].trimmingCharacters(in: .whitespaces), radix: 16)
            }.filter { address in functions.contains { $0.contains(address) } }
        }

        /// `arm-none-eabi-addr2line -f -i`'s frames for `address`, `function file:line`.
        func addr2line(_ address: UInt64) throws -> [String] {
            let lines = try Subprocess.run(
                path: "/usr/bin/env", ["arm-none-eabi-addr2line", "-f", "-i", "-e", path, hex(address)]
            ).stdout.split(separator: "\n").map(String.init)
            return stride(from: 0, to: lines.count - 1, by: 2).map {
                lines[$0] + " " + lines[$0 + 1].split(separator: " (discriminator")[0]
            }
        }
    }

    static func hex(_ address: UInt64) -> String {
        let digits = String(address, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// The three reports, with `addresses` where their formats put code addresses.
    static func reports(_ a: [UInt64]) -> [String] {
        let h = a.map(hex)
        return [
            "Guru Meditation Error: Core  0 panic'ed (LoadProhibited). Exception was unhandled.",
            "Core  0 register dump:",
            "PC      : \(h[0])  PS      : 0x00060630  A0      : 0x800d1c3d  A1      : 0x3ffb1f60",
            "Backtrace: \(h[0]):0x3ffb1f60 \(h[1]):0x3ffb1f80 \(h[2]):0x3ffb1fa0 0x20000000:0x3ffb1fc0",
            "[00:00:00.012,000] <err> os: r3/a4:  0x00009068 r12/ip:  0x00000000 r14/lr:  \(h[3])",
            "[00:00:00.012,000] <err> os: Faulting instruction address (r15/pc): \(h[4])",
            "HardFault: PC  = \(h[5])",
            "HardFault: LR  = 0xfffffff9",
        ]
    }

    /// `tether monitor` on `lines`, with `--elf` the firmware's unless `arguments` say
    /// where it is.
    private func monitor(_ firmware: Firmware, _ arguments: [String], lines: [String], givesELF: Bool = true) throws
        -> Subprocess.Result
    {
        let text = lines.map { $0 + "\r\n" }.joined()
        let simulator = try Simulator(device: ScriptedDevice(onOpen: [Chunk(text, after: .milliseconds(200))]))
        defer { simulator.stop() }
        return try Subprocess.run(
            "tether",
            ["monitor", simulator.devicePath, "--count", "\(lines.count)"] + (givesELF ? ["--elf", firmware.path] : [])
                + arguments,
            timeout: 120)
    }

    @Test func eachReportsAddressesMatchAddr2line() throws {
        let firmware = try Firmware()
        // Spread over the code, inlined instructions among them.
        let picked = (0..<6).map { firmware.addresses[$0 * (firmware.addresses.count - 1) / 5] }
        let lines = Self.reports(picked)
        let result = try monitor(firmware, ["--format", "json"], lines: lines)
        #expect(result.status == 0, "\(result.stderr)")
        let records = try JSONLines.parse(result.stdout).filter { $0["type"] as? String == "notification" }
        #expect(records.compactMap { $0["line"] as? String } == lines)
        var checked = 0
        for record in records {
            for symbol in record["line_symbols"] as? [[String: Any]] ?? [] {
                let address = try #require(UInt64((symbol["address"] as? String ?? "").dropFirst(2), radix: 16))
                let frames = (symbol["frames"] as? [[String: Any]] ?? []).map {
                    "\($0["function"] as? String ?? "") \($0["file"] as? String ?? ""):\($0["line"] as? Int ?? 0)"
                }
                if symbol["outside"] as? Bool == true {
                    #expect([0x2000_0000, 0xFFFF_FFF9].contains(address))
                } else {
                    #expect(frames == (try firmware.addr2line(address)), "\(Self.hex(address))")
                    checked += 1
                }
            }
        }
        // PC and its three backtrace frames, Zephyr's LR and PC, the Cortex-M PC.
        #expect(checked == 7)
        let fields = records.flatMap {
            ($0["line_symbols"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
        }
        #expect(
            fields == [
                "PC", "backtrace", "backtrace", "backtrace", "backtrace", "r14/lr",
                "Faulting instruction address (r15/pc)", "PC", "LR",
            ])
    }

    /// Text: the lines as the device sent them, each address's frames under its line.
    @Test func textShowsFunctionsAndLinesUnderTheReport() throws {
        let firmware = try Firmware()
        let inlined = try #require(try firmware.addresses.first { try firmware.addr2line($0).count == 3 })
        let line = "Backtrace: \(Self.hex(inlined)):0x3ffb1f60 0x20000000:0x3ffb1f80"
        let result = try monitor(firmware, [], lines: [line])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try firmware.addr2line(inlined).map { frame in
            let parts = frame.split(separator: " ", maxSplits: 1)
            return "\(parts[0]) at \(parts[1])"
        }
        let indent = String(repeating: " ", count: 14)
        #expect(
            result.stdout == """
                \(line)
                  \(Self.hex(inlined)): \(frames[0])
                \(indent)(inlined by) \(frames[1])
                \(indent)(inlined by) \(frames[2])
                  0x20000000: outside the ELF file

                """)
    }

    /// A device description file's `elf` key does what `--elf` does.
    @Test func aDeviceFileNamesTheELFFile() throws {
        let firmware = try Firmware()
        let file = firmware.folder.path("board.json")
        try Data(#"{"elf": "\#(firmware.path)"}"#.utf8).write(to: URL(fileURLWithPath: file))
        let line = "PC      : \(Self.hex(firmware.addresses[0]))  PS      : 0x00060630"
        let result = try monitor(firmware, ["--device", file], lines: [line], givesELF: false)
        #expect(result.status == 0, "\(result.stderr)")
        let frames = try firmware.addr2line(firmware.addresses[0]).map {
            $0.replacingOccurrences(of: " ", with: " at ")
        }
        let head = "  \(Self.hex(firmware.addresses[0])): "
        let under = String(repeating: " ", count: head.count) + "(inlined by) "
        let expected = [line, head + frames[0]] + frames.dropFirst().map { under + $0 }
        #expect(result.stdout == expected.map { $0 + "\n" }.joined())
    }

    @Test func aMissingELFFileExits79BeforeThePortOpens() throws {
        let result = try Subprocess.run(
            "tether", ["monitor", "--sim", "--elf", "/nonexistent/app.elf", "--count", "1"])
        #expect(result.status == 79)
        #expect(result.stderr == "Error: cannot read the ELF file '/nonexistent/app.elf': No such file or directory\n")
    }

    @Test func aFileThatIsNotELFExits79() throws {
        let folder = try TemporaryFolder()
        try Data("not firmware\n".utf8).write(to: URL(fileURLWithPath: folder.path("app.elf")))
        let result = try Subprocess.run(
            "tether", ["monitor", "--sim", "--elf", folder.path("app.elf"), "--count", "1"])
        #expect(result.status == 79)
        #expect(result.stderr.contains("cannot read the ELF file"), "\(result.stderr)")
    }
}
