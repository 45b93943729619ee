import Foundation
import Testing
import TetherPresenter
import TetherSymbols

/// `ELFSymbols` against binutils' `addr2line -f -i` on ELF files built here with Debian's
/// toolchains, nobody's code but GCC's: every instruction address of a program with
/// inline functions (several levels deep), for ARM Cortex-M (`gcc-arm-none-eabi`) and
/// Xtensa (`gcc-xtensa-lx106`), machines other than the host's, and the host's own gcc.
@Suite struct AddrToLineTests {
    @Test func armCortexMAgreesWithAddr2lineAtEveryInstruction() throws {
        let firmware = try Firmware.build(compiler: "arm-none-eabi-gcc", flags: Firmware.cortexM)
        try expectAgreement(firmware, tools: "arm-none-eabi-")
    }

    /// Xtensa, the ESP32's architecture: Debian's toolchain is the ESP8266's LX106, whose
    /// ELF and DWARF are the same machine's (`EM_XTENSA`).
    @Test func xtensaAgreesWithAddr2lineAtEveryInstruction() throws {
        let firmware = try Firmware.build(
            compiler: "xtensa-lx106-elf-gcc", flags: ["-O2", "-g", "-nostdlib", "-ffreestanding"])
        try expectAgreement(firmware, tools: "xtensa-lx106-elf-")
    }

    @Test func hostELFAgreesWithAddr2lineAtEveryInstruction() throws {
        let firmware = try Firmware.build(compiler: "gcc", flags: ["-O2", "-g", "-nostdlib", "-static"])
        try expectAgreement(firmware, tools: "")
    }

    /// A stripped file has no DWARF: functions by their symbols' names, no file or line.
    @Test func strippedELFGivesFunctionNamesOnly() throws {
        let firmware = try Firmware.build(compiler: "arm-none-eabi-gcc", flags: Firmware.cortexM)
        let stripped = firmware.path + ".stripped"
        try Firmware.run("arm-none-eabi-strip", ["--strip-debug", "-o", stripped, firmware.path])
        let symbols = try ELFSymbols(path: stripped)
        #expect(!symbols.hasDebugInformation)
        let fault = try #require(firmware.symbols["fault"])
        #expect(symbols.lookUp(fault) == .frames([CodeFrame(function: "fault")]))
    }

    /// Addresses outside every function: below the image, past it, in RAM.
    @Test(arguments: [0x0, 0x2000_0000, 0xFFFF_FFF9] as [UInt64])
    func addressOutsideTheFileIsOutside(address: UInt64) throws {
        let firmware = try Firmware.build(compiler: "arm-none-eabi-gcc", flags: Firmware.cortexM)
        #expect(try ELFSymbols(path: firmware.path).lookUp(address) == .outside)
    }

    @Test func missingFileIsAnError() {
        #expect(throws: ELFFileError.self) { try ELFSymbols(path: "/nonexistent/app.elf") }
    }

    @Test func fileThatIsNotELFIsAnError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-elf-\(getpid()).bin").path
        try Data("not an ELF file\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: ELFFileError.self) { try ELFSymbols(path: path) }
        #expect(error.description.hasPrefix("cannot read the ELF file '\(path)': "))
    }

    /// Every instruction address of `firmware`'s code: tether's frames are addr2line's.
    private func expectAgreement(_ firmware: Firmware, tools: String) throws {
        let symbols = try ELFSymbols(path: firmware.path)
        #expect(symbols.hasDebugInformation)
        let addresses = try firmware.instructionAddresses(objdump: tools + "objdump")
        let expected = try Firmware.addr2line(tools + "addr2line", firmware.path, addresses)
        #expect(addresses.count > 20)
        var inlined = 0
        for (address, frames) in zip(addresses, expected) {
            guard case .frames(let found) = symbols.lookUp(address) else {
                Issue.record("0x\(String(address, radix: 16)): outside, addr2line says \(frames)")
                continue
            }
            #expect(
                found.map { "\($0.function) \($0.file ?? "??"):\($0.line ?? 0)" } == frames,
                "0x\(String(address, radix: 16))")
            if found.count > 1 { inlined += 1 }
        }
        #expect(inlined > 0)  // inline frames were among them
        FileHandle.standardError.write(
            Data("addr2line agreement (\(tools)): \(addresses.count) addresses, \(inlined) with inline frames\n".utf8))
    }
}

/// A small program built for a test: inline functions two deep, a fault.
struct Firmware {
    static let source = """
        static inline __attribute__((always_inline)) int square(int x) { return x * x + 1; }
        static inline __attribute__((always_inline)) int twice(int x) { return square(x) * 2; }
        volatile int sink;
        __attribute__((noinline)) int compute(int a) { sink = twice(a); return sink + 3; }
        __attribute__((noinline)) void fault(void) { *(volatile int *)0 = compute(sink); }
        __attribute__((noinline)) int loop(int n) {
            int total = 0;
            for (int i = 0; i < n; i++) total += twice(i) + square(total);
            return total;
        }
        void _start(void) { for (;;) { sink = loop(sink); fault(); } }

        """
    static let cortexM = ["-mcpu=cortex-m4", "-mthumb", "-O2", "-g", "-nostdlib", "-ffreestanding"]

    /// The ELF file's path.
    var path: String
    /// Each function symbol's address.
    var symbols: [String: UInt64]
    /// The bytes each function symbol covers (its address and size).
    var functions: [Range<UInt64>]

    static func build(compiler: String, flags: [String]) throws -> Firmware {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tether-elf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let source = directory.appendingPathComponent("app.c").path
        try Data(Self.source.utf8).write(to: URL(fileURLWithPath: source))
        let path = directory.appendingPathComponent("app.elf").path
        try run(compiler, flags + ["-o", path, source])
        let nm = compiler.hasSuffix("gcc") ? String(compiler.dropLast(3)) + "nm" : "nm"
        var symbols: [String: UInt64] = [:]
        var functions: [Range<UInt64>] = []
        for line in try run(nm, ["-S", path]).split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, let address = UInt64(fields[0], radix: 16), let size = UInt64(fields[1], radix: 16)
            else { continue }
            symbols[String(fields[3])] = address
            if fields[2] == "T" || fields[2] == "t" { functions.append(address..<address + size) }
        }
        return Firmware(path: path, symbols: symbols, functions: functions)
    }

    /// The address of every instruction in a function, as objdump disassembles it
    /// (not the padding between functions, which addr2line gives the line before).
    func instructionAddresses(objdump: String) throws -> [UInt64] {
        try Self.run(objdump, ["-d", "--no-show-raw-insn", path]).split(separator: "\n").compactMap { line in
            let trimmed = line.drop { $0 == " " }
            guard let colon = trimmed.firstIndex(of: ":"), line.hasPrefix(" "),
                !trimmed[trimmed.index(after: colon)...].contains(".word")
            else { return nil }
            return UInt64(trimmed[..<colon], radix: 16)
        }.filter { address in functions.contains { $0.contains(address) } }
    }

    /// `addr2line -f -i -e` for `addresses`: each address's frames as `function file:line`
    /// (discriminators left out).
    static func addr2line(_ tool: String, _ path: String, _ addresses: [UInt64]) throws -> [[String]] {
        // One address at a time: addr2line's output has no separator between addresses.
        try addresses.map { address in
            let lines = try run(tool, ["-f", "-i", "-e", path, "0x" + String(address, radix: 16)])
                .split(separator: "\n").map(String.init)
            return stride(from: 0, to: lines.count - 1, by: 2).map { index in
                let location = lines[index + 1].split(separator: " (discriminator")[0]
                return lines[index] + " " + location
            }
        }
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(tool) \(arguments) failed"])
        }
        return String(decoding: data, as: UTF8.self)
    }
}
