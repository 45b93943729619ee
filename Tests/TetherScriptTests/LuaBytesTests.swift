import Testing
import TetherPresenter
import TetherScript
import TetherSimulator

/// `dev.write`, `dev.write_now`, `dev.read` and `dev.discard_input` (docs/SCRIPTING.md,
/// "Raw bytes") over simulated devices.
@Suite struct LuaBytesTests {
    typealias Chunk = ScriptedDevice.Chunk

    /// `read(n)` returns as soon as n bytes are there, exactly n; at the timeout what
    /// came (fewer than n); with nothing, `nil, "timeout"`.
    @Test func readTakesExactlyNOrWhatCameOrTimesOut() async throws {
        let device = ScriptedDevice(rules: [.init(on: "go\n", send: [Chunk("abcdef")])])
        let harness = try Harness([(nil, device)])
        let summary = try await harness.run(
            """
            device.write("go\\n")
            check(device.read(4, 2000) == "abcd", "exactly 4")
            check(device.read(10, 300) == "ef", "the 2 that came")
            local none, err = device.read(1, 200)
            check(none == nil and err == "timeout", "nothing came")
            """)
        #expect(summary.outcome == .passed, "\(harness.view.checks) \(harness.view.problems)")
        #expect(summary.passed == 3)
    }

    /// `discard_input()` drops what came before (a boot banner) and returns how many
    /// bytes that was, so the handshake's answer is the next byte read.
    @Test func discardInputDropsWhatCameBefore() async throws {
        let device = ScriptedDevice(onOpen: [Chunk("BANNER\r\n")], rules: [.init(on: [0x7F], send: [Chunk([0x79])])])
        let harness = try Harness([(nil, device)])
        let summary = try await harness.run(
            """
            device.expect("^BANNER$")
            check(device.discard_input() == 8, "the banner's 8 bytes")
            device.write("\\x7f")
            check(device.read(1, 10000) == "\\x79", "ACK")
            """)
        #expect(summary.outcome == .passed, "\(harness.view.checks) \(harness.view.problems)")
    }

    /// A queued raw write is a `sent` record of kind `raw`, an immediate one of kind
    /// `immediate`; an empty one writes nothing.
    @Test func writesAreRecordedRawAndImmediate() async throws {
        let harness = try Harness([(nil, SimulatorProfiles.defaultDevice())])
        let summary = try await harness.run(
            #"check(device.write("A\r\n") and device.write_now("\x03") and device.write(""), "true")"#)
        #expect(summary.outcome == .passed, "\(harness.view.problems)")
        let sent = harness.view.events(of: nil).compactMap {
            if case .sent(let command, let kind) = $0 { (command.bytes, kind) } else { nil }
        }
        #expect(sent.map(\.0) == [Array("A\r\n".utf8), [0x03]])
        #expect(sent.map(\.1) == [.raw, .immediate])
    }

    /// Past 1 MiB unread the oldest bytes are dropped, and the next `read` says how
    /// many in a warning before it returns the oldest byte still kept.
    @Test func bytesPastTheLimitAreDroppedWithAWarning() async throws {
        let flood = [UInt8](repeating: UInt8(ascii: "x"), count: (1 << 20) + 100) + Array("\nEND\n".utf8)
        let device = ScriptedDevice(rules: [.init(on: "go\n", send: [Chunk(flood)])])
        let harness = try Harness([(nil, device)])
        let summary = try await harness.run(
            """
            device.write("go\\n")
            device.expect("^END$", 10000)
            check(device.read(1, 100) == "x", "the oldest kept")
            """)
        #expect(summary.outcome == .passed, "\(harness.view.checks) \(harness.view.problems)")
        let warnings = harness.view.events(of: nil).compactMap {
            if case .warning(let message) = $0 { message } else { nil }
        }
        #expect(warnings == ["105 received bytes were dropped unread: read keeps the latest 1048576 bytes"])
    }

    @Test(arguments: [
        ("device.read(0)", "test.lua:1: read: count must be a whole number of bytes from 1 to 1048576"),
        ("device.read(1.5)", "test.lua:1: read: count must be a whole number of bytes from 1 to 1048576"),
        ("device.read(1, -1)", "test.lua:1: read: timeout must be a number of milliseconds, 0 or more"),
        ("device.write(3)", "test.lua:1: write: bytes must be a string, got number"),
        ("device.write_now()", "test.lua:1: write_now: bytes must be a string, got nil"),
        // Were accepted silently, the argument ignored.
        ("device.discard_input(5)", "test.lua:1: discard_input: takes no arguments, got number"),
        (#"device.discard_input("x")"#, "test.lua:1: discard_input: takes no arguments, got string"),
        ("device:discard_input(5)", "test.lua:1: discard_input: takes no arguments, got number"),
    ])
    func badArgumentsAreScriptErrors(line: String, message: String) async throws {
        let harness = try Harness([(nil, SimulatorProfiles.defaultDevice())])
        let summary = try await harness.run(line)
        #expect(summary.outcome == .scriptError)
        #expect(harness.view.problems.map(\.message) == [message])
    }
}
