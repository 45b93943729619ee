import Foundation
import Testing

@testable import TetherModel
@testable import TetherPresenter

/// The addresses each crash format's lines hold, as the vendors print them (ESP-IDF's
/// panic handler, Zephyr's fatal error, Cortex-M fault handlers), and the symbols the
/// Presenter puts beside a notification when the facts have a symbolizer (`--elf`).
@Suite struct CrashAddressFormatTests {
    private func addresses(_ line: String) -> [String] {
        CrashAddressFormat.addresses(in: Array(line.utf8)).map { "\($0.field)=0x\(String($0.address, radix: 16))" }
    }

    @Test func espIDFBacktraceGivesEachPairsProgramCounter() {
        #expect(
            addresses("Backtrace: 0x400d1a2b:0x3ffb1f60 0x400d1c3a:0x3ffb1f80 0x40088f2d:0x3ffb1fa0")
                == ["backtrace=0x400d1a2b", "backtrace=0x400d1c3a", "backtrace=0x40088f2d"])
        // Older releases write no space after the colon; a corrupted stack ends the list.
        #expect(
            addresses("Backtrace:0x400d1a2b:0x3ffb1f60 0x400d1c3a:0x3ffb1f80 |<-CORRUPTED")
                == ["backtrace=0x400d1a2b", "backtrace=0x400d1c3a"])
    }

    @Test func espIDFRegisterDumpGivesPCAndRISCVsMEPCAndRA() {
        #expect(
            addresses("PC      : 0x400d1a2b  PS      : 0x00060630  A0      : 0x800d1c3d  A1      : 0x3ffb1f60")
                == ["PC=0x400d1a2b"])
        #expect(
            addresses("MEPC    : 0x42000a2e  RA      : 0x42000a2a  SP      : 0x3fc8f6a0  GP      : 0x3fc8b200")
                == ["MEPC=0x42000a2e", "RA=0x42000a2a"])
    }

    @Test func zephyrFatalErrorGivesFaultingAddressAndLinkRegister() {
        #expect(
            addresses("[00:00:00.012,000] <err> os: Faulting instruction address (r15/pc): 0x0000a1b2")
                == ["Faulting instruction address (r15/pc)=0xa1b2"])
        #expect(
            addresses("[00:00:00.012,000] <err> os: r3/a4:  0x00009068 r12/ip:  0x00000000 r14/lr:  0x0000805f")
                == ["r14/lr=0x805f"])
        #expect(addresses("E:     mepc: 0x00000f2c") == ["mepc=0xf2c"])
    }

    @Test func cortexMFaultDumpGivesPCAndLR() {
        #expect(addresses("PC  = 0x08001136") == ["PC=0x8001136"])
        #expect(addresses("LR  = 0x0800114b") == ["LR=0x800114b"])
        #expect(
            addresses("Stacked PC: 0x08001136, Stacked LR: 0x0800114b") == [
                "Stacked PC=0x8001136", "Stacked LR=0x800114b",
            ])
    }

    /// Log lines that hold hexadecimal numbers but no crash field: nothing.
    @Test(arguments: [
        "I (312) cpu_start: App cpu up. heap 0x3ffae6e0", "rst:0x1 (POWERON_RESET),boot:0x13 (SPI_FAST_FLASH_BOOT)",
        "EPC: 0x1234", "topc: 0x1234", "PC: 0x12zz", "load:0x3fff0030,len:1344", "no address here",
    ])
    func linesWithoutACrashFieldHaveNoAddress(line: String) {
        #expect(addresses(line).isEmpty)
    }

    struct FixedSymbols: AddressSymbolizing {
        func lookUp(_ address: UInt64) -> AddressLookup {
            address == 0x400d_1a2b
                ? .frames([
                    CodeFrame(function: "square", file: "main/app.c", line: 3, isInlined: true),
                    CodeFrame(function: "app_main", file: "main/app.c", line: 9),
                ]) : .outside
        }
    }

    @Test func aNotificationInACrashFormatCarriesItsSymbols() throws {
        var facts = DeviceFacts()
        facts.symbolizer = FixedSymbols()
        var presenter = Presenter(port: "/dev/ttyUSB0", facts: facts)
        let line = "Backtrace: 0x400d1a2b:0x3ffb1f60 0x40000000:0x3ffb1f80"
        let records = presenter.handle(
            DeviceEvent(time: Date(timeIntervalSince1970: 0), kind: .session(.notification(Line(line)))))
        guard case .notification(let viewLine, _) = try #require(records.first).event else {
            Issue.record("not a notification: \(records)")
            return
        }
        #expect(viewLine.text == line)
        #expect(
            viewLine.symbols == [
                AddressSymbol(address: 0x400d_1a2b, field: "backtrace", lookup: FixedSymbols().lookUp(0x400d_1a2b)),
                AddressSymbol(address: 0x4000_0000, field: "backtrace", lookup: .outside),
            ])
    }

    /// A device's own fields (`--crash-fields EPC1,EXCVADDR`) are looked up too.
    @Test func theFactsCrashFieldsExtendTheTable() throws {
        var facts = DeviceFacts()
        facts.symbolizer = FixedSymbols()
        facts.crashFields = ["EPC1", "EXCVADDR"]
        var presenter = Presenter(port: "/dev/ttyUSB0", facts: facts)
        let records = presenter.handle(
            DeviceEvent(
                time: Date(timeIntervalSince1970: 0),
                kind: .session(.notification(Line("EPC1    : 0x400d1a2b  EPC2    : 0x00000000")))))
        guard case .notification(let viewLine, _) = try #require(records.first).event else { return }
        #expect(viewLine.symbols.map(\.field) == ["EPC1"])
    }

    @Test func withoutASymbolizerNoLineIsLookedAt() throws {
        var presenter = Presenter(port: "/dev/ttyUSB0")
        let records = presenter.handle(
            DeviceEvent(time: Date(timeIntervalSince1970: 0), kind: .session(.notification(Line("PC : 0x400d1a2b")))))
        guard case .notification(let viewLine, _) = try #require(records.first).event else { return }
        #expect(viewLine.symbols.isEmpty)
    }
}
