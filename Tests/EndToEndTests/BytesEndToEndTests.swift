import Foundation
import Glibc
import Testing

/// Exact bytes through the real CLI, libserialport and a pty: escapes in commands,
/// `--eol none`, empty commands, query-file spellings and pacing against a simulated
/// receiver without a FIFO. What the device received is read from `tether-sim`'s
/// transcript (`--log`, Simulator/README.md): its `<` lines are the bytes the device
/// took, after any receive-gap fault.
@Suite(.serialized) struct BytesEndToEndTests {
    /// A `tether-sim` at a link, logging what it receives.
    final class LoggedSimulator {
        let folder: TemporaryFolder
        let link: String
        let transcript: String
        let process: Subprocess

        init(_ options: [String] = []) throws {
            folder = try TemporaryFolder()
            link = folder.path("tty")
            transcript = folder.path("transcript")
            process = try Subprocess("tether-sim", ["--link", link, "--log", transcript] + options)
            #expect(process.waitForOutput(containing: "link: \(link)"))
        }

        deinit {
            process.send(SIGTERM)
            _ = process.wait()
        }

        /// The bytes the device took so far, from the transcript's `<` lines.
        func receivedNow() -> [UInt8] { TranscriptBytes.received(in: transcript) }

        /// The bytes the device took once at least `count` came (waiting up to 20 s),
        /// and nothing more came for 300 ms.
        func received(atLeast count: Int) -> [UInt8] {
            let deadline = Date().addingTimeInterval(20)
            while receivedNow().count < count, Date() < deadline { usleep(20_000) }
            usleep(300_000)
            return receivedNow()
        }
    }

    private func query(_ simulator: LoggedSimulator, _ arguments: [String]) throws -> Subprocess.Result {
        let result = try Subprocess.run("tether", ["query", simulator.link, "--timeout", "300"] + arguments)
        #expect([0, 1, 75].contains(result.status), "\(result.stderr)")
        return result
    }

    /// `\x7f\xff\x00ABC` goes out as exactly those bytes and the line end: 0xFF is no
    /// longer U+FFFD (`ef bf bd`) on the wire.
    @Test func escapesSendExactBytes() throws {
        let simulator = try LoggedSimulator()
        _ = try query(simulator, [#"\x7f\xff\x00ABC"#])
        #expect(simulator.received(atLeast: 7) == [0x7F, 0xFF, 0x00, 0x41, 0x42, 0x43, 0x0A])
    }

    /// Every byte value 0x00–0xFF, written as `\xNN`, reaches the device unchanged
    /// (`--eol none`: nothing after them).
    @Test func everyByteValueGoesThrough() throws {
        let simulator = try LoggedSimulator()
        let command = (0...255).map { "\\x" + String(format: "%02x", $0) }.joined()
        _ = try query(simulator, ["--eol", "none", command])
        #expect(simulator.received(atLeast: 256) == Array(0...255))
    }

    /// `--eol none` sends the command's bytes alone; an escaped `\r` is the user's own
    /// line end.
    @Test func eolNoneSendsNoTerminator() throws {
        let simulator = try LoggedSimulator()
        _ = try query(simulator, ["--eol", "none", #"AB\r"#])
        #expect(simulator.received(atLeast: 3) == Array("AB\r".utf8))
    }

    /// `''` sends the line end alone (a bare Enter); `' '` is a command: a space and
    /// the line end.
    @Test func anEmptyCommandSendsTheLineEndAndASpaceIsACommand() throws {
        let simulator = try LoggedSimulator()
        _ = try query(simulator, ["", " "])
        #expect(simulator.received(atLeast: 3) == Array("\n \n".utf8))
    }

    /// In a query file `""` is the empty command and `" "` a single space (blank lines
    /// are skipped, and a bare space would be trimmed away); escapes work there too.
    @Test func aQueryFileSpellsTheEmptyCommandAndASpace() throws {
        let simulator = try LoggedSimulator()
        let script = simulator.folder.path("bytes.txt")
        try Data("\"\"\n\n\" \"\nA\\tB\n".utf8).write(to: URL(fileURLWithPath: script))
        let result = try Subprocess.run("tether", ["run", script, "--port", simulator.link, "--timeout", "300"])
        #expect([0, 1, 75].contains(result.status), "\(result.stderr)")
        #expect(simulator.received(atLeast: 7) == Array("\n \nA\tB\n".utf8))
    }

    /// A Lua string's exact bytes are the command: `"\xff\x01"` goes out as `ff 01`,
    /// and `""` is the line end alone.
    @Test func luaSendsAStringsExactBytes() throws {
        let simulator = try LoggedSimulator()
        let script = #"device:send("\xff\x01"); device:send(""); sleep(100)"#
        let result = try Subprocess.run(
            "tether", ["run", "-", "--lua", "--port", simulator.link, "--timeout", "300"], stdin: script + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(simulator.received(atLeast: 4) == [0xFF, 0x01, 0x0A, 0x0A])
    }

    /// `printf '\xffA\n' | tether connect` sent `ef bf bd 41`: the piped line was
    /// decoded as UTF-8 and U+FFFD went out. Every byte piped reaches the device as it
    /// came: 0xFF, a lone continuation byte 0x80, a lead byte 0xC3 with nothing after
    /// it, a NUL inside a line, and a CR LF line end taken as the line end.
    @Test func bytesPipedIntoConnectReachTheDeviceAsTheyCame() throws {
        let simulator = try LoggedSimulator()
        let process = try Subprocess("tether", ["connect", simulator.link, "--timeout", "300"])
        process.write(bytes: [
            0xFF, 0x41, 0x0A, 0x80, 0x0A, 0xC3, 0x0A, 0x41, 0x00, 0x42, 0x0D, 0x0A, 0x5C, 0x78, 0x46, 0x45,
        ])
        process.closeInput()
        let result = process.wait(timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            simulator.received(atLeast: 13)
                == [0xFF, 0x41, 0x0A, 0x80, 0x0A, 0xC3, 0x0A, 0x41, 0x00, 0x42, 0x0A, 0xFE, 0x0A])
    }

    /// A receiver that drops bytes arriving less than 5 ms after the last one it took
    /// gets `PRINT 2+2\r` whole when each byte waits for the port loop's pacing
    /// deadline (a wide margin over 5 ms, so a busy machine cannot squeeze two bytes
    /// together), and only `P` when the command goes out in one write.
    @Test func pacingGetsACommandPastAReceiverWithoutAFIFO() throws {
        let paced = try LoggedSimulator(["--receive-gap", "5"])
        _ = try query(paced, ["--eol", "none", "--char-delay", "200", #"PRINT 2+2\r"#])
        #expect(paced.received(atLeast: 10) == Array("PRINT 2+2\r".utf8))

        let unpaced = try LoggedSimulator(["--receive-gap", "5"])
        _ = try query(unpaced, ["--eol", "none", #"PRINT 2+2\r"#])
        #expect(unpaced.received(atLeast: 1) == Array("P".utf8))
        let transcript = try String(contentsOfFile: unpaced.transcript, encoding: .utf8)
        #expect(
            transcript.contains("* receive gap: dropped 52 49 4e 54 20 32 2b 32 0d  \"RINT 2+2\\r\""), "\(transcript)")
    }

    /// A bad escape is a usage error (64) naming the command and the position; nothing
    /// is sent. In a query file it is a script error (65) naming the file and line.
    @Test(arguments: [
        (#"A\qB"#, #"'\q' at position 2 in the command 'A\qB'"#),
        (#"\x4"#, #"'\x4' at position 1 in the command '\x4'"#),
        (#"ab\xZZ"#, #"'\xZZ' at position 3 in the command 'ab\xZZ'"#),
        (#"end\"#, #"'\' at position 4 in the command 'end\'"#),
    ])
    func aBadEscapeIsAUsageError(command: String, named: String) throws {
        let result = try Subprocess.run("tether", ["query", "--sim", "*IDN?", command])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: Bad escape \(named): use \\r, \\n"), "\(result.stderr)")
    }

    @Test func aBadEscapeInAQueryFileIsAScriptError() throws {
        let folder = try TemporaryFolder()
        let script = folder.path("bad.txt")
        try Data("*IDN?\nSEND \\q == OK\n".utf8).write(to: URL(fileURLWithPath: script))
        let result = try Subprocess.run("tether", ["run", script, "--sim"])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("Error: \(script):2: Bad escape '\\q' at position 6"), "\(result.stderr)")
    }

    /// A line break typed into a command is still refused; the escape `\n` is sent.
    @Test func aTypedLineBreakIsRefusedButAnEscapedOneIsSent() throws {
        let refused = try Subprocess.run("tether", ["query", "--sim", "A\nB"])
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix(#"Error: The command 'A\nB' contains a line break"#), "\(refused.stderr)")
        let simulator = try LoggedSimulator()
        _ = try query(simulator, ["--eol", "none", #"A\nB"#])
        #expect(simulator.received(atLeast: 3) == Array("A\nB".utf8))
    }
}
