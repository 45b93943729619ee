import Testing

@testable import TetherModel

/// On a console that echoes, a reply starts after the command's echo; a console that has
/// shown its prompt alone on a line is not prompted by the same text after other text
/// (docs/DIALECTS.md, "`prompt`"). The bytes are those of the consoles in
/// ``UBootEndToEndTests`` and ``PromptConsoleEndToEndTests``.
@Suite struct PromptEchoTests {
    static let crc32 = "crc32 0x42000000 0x19000"

    /// Real U-Boot 2023.01 under QEMU, the first command after `loady`: the rest of the
    /// transfer's summary and its prompt come 266 ms after the command is written, the
    /// echo (after that prompt) 700 ms later.
    @Test func theRestOfATransferSummaryBeforeTheEchoIsEarlierOutput() {
        var harness = SessionHarness(PromptDialect())
        harness.enqueue(Self.crc32, timeout: 10_000)
        harness.receive(
            "## Total Size      = 0x00019000 = 102400 Bytes\r\n## Start Addr      = 0x42000000\r\n=> ", at: 266)
        harness.expire(at: 316)
        harness.expire(at: 900)
        #expect(harness.replies.isEmpty)
        harness.receive(Self.crc32 + "\r\n", at: 969)
        harness.receive("crc32 for 42000000 ... 42018fff ==> 75bf8118\r\n=> ", at: 970)
        harness.expire(at: 1020)
        #expect(harness.replyLines == [["crc32 for 42000000 ... 42018fff ==> 75bf8118"]])
        #expect(
            harness.notificationTexts == [
                "## Total Size      = 0x00019000 = 102400 Bytes", "## Start Addr      = 0x42000000",
            ])
    }

    /// The boot log of an ESP32 reset as the port opened, printed after the command was
    /// written.
    static let bootLog = [
        "ets Jun  8 2016 00:22:57", "", "rst:0x1 (POWERON_RESET),boot:0x13 (SPI_FAST_FLASH_BOOT)",
        "configsip: 0, SPIWP:0xee", "mode:DIO, clock div:2", "load:0x3fff0030,len:4540", "entry 0x4008067c",
    ]
    static let banner = [
        "MicroPython v1.22.0 on 2023-12-27; Generic ESP32 module with ESP32", "Type \"help()\" for more information.",
    ]

    /// MicroPython's REPL echoes the command after its boot log and first `>>> `.
    @Test func aBootLogBeforeTheEchoIsEarlierOutput() {
        var harness = SessionHarness(PromptDialect(prompt: ">>> "))
        harness.enqueue("print(1+1)", timeout: 3000)
        harness.receive(Self.bootLog.map { $0 + "\r\n" }.joined(), at: 100)
        harness.receive(Self.banner.map { $0 + "\r\n" }.joined() + ">>> ", at: 350)
        harness.receive("print(1+1)\r\n", at: 370)
        harness.receive("2\r\n>>> ", at: 375)
        harness.expire(at: 425)
        #expect(harness.replyLines == [["2"]])
        #expect(harness.notificationTexts == (Self.bootLog + Self.banner).filter { !$0.isEmpty })
    }

    /// The same with the REPL's first prompt quiet for 200 ms before the echo: that prompt
    /// ends the boot log, not the reply.
    @Test func aPromptBeforeTheEchoEndsEarlierOutput() {
        var harness = SessionHarness(PromptDialect(prompt: ">>> "))
        harness.enqueue("print(1+1)", timeout: 3000)
        harness.receive(Self.banner.map { $0 + "\r\n" }.joined() + ">>> ", at: 100)
        harness.expire(at: 150)
        harness.expire(at: 250)
        #expect(harness.replies.isEmpty)
        harness.receive("print(1+1)\r\n2\r\n>>> ", at: 300)
        harness.expire(at: 350)
        #expect(harness.replyLines == [["2"]])
        #expect(harness.notificationTexts == Self.banner)
    }

    /// A console that does not echo: the reply is every line after the command is written.
    @Test func aConsoleThatDoesNotEchoKeepsEveryLine() {
        var harness = SessionHarness(PromptDialect(prompt: "> ", echoes: false))
        harness.enqueue("ver")
        harness.receive("fw 1.2.3\r\n> ", at: 5)
        harness.expire(at: 55)
        #expect(harness.replyLines == [["fw 1.2.3"]])
    }

    /// U-Boot's `crc32` prints `… ==> `, computes (60 ms here), then prints the CRC: the
    /// `=> ` after other text is no prompt on a console that showed `=> ` alone — before
    /// the first command, or at the end of the last reply (the second `crc32`'s echo
    /// comes alone, that prompt taken).
    @Test func thePromptAfterOtherTextIsOutputOnAConsoleThatShowedItAlone() {
        var harness = SessionHarness(PromptDialect())
        harness.receive("=> ", at: 0)
        harness.enqueue(Self.crc32, at: 10)
        harness.enqueue("version", at: 10)
        harness.enqueue(Self.crc32, at: 10)
        harness.receive(Self.crc32 + "\r\nCRC32 for 42000000 ... 42018fff ==> ", at: 15)
        harness.expire(at: 70)
        #expect(harness.replies.isEmpty)
        harness.receive("b2aff8d0\r\n=> ", at: 75)
        harness.expire(at: 125)
        harness.receive("version\r\nU-Boot 2023.01\r\n=> ", at: 130)
        harness.expire(at: 180)
        harness.receive(Self.crc32 + "\r\nCRC32 for 42000000 ... 42018fff ==> ", at: 185)
        harness.expire(at: 245)
        harness.receive("b2aff8d0\r\n=> ", at: 245)
        harness.expire(at: 295)
        let crc = ["CRC32 for 42000000 ... 42018fff ==> b2aff8d0"]
        #expect(harness.replyLines == [crc, ["U-Boot 2023.01"], crc])
        #expect(harness.notifications.isEmpty)
    }

    /// A reader that consumed the shown `=> ` (a person typing at it in `connect`, a
    /// query file's wait line, Lua's `expect`) saw the console show its prompt alone:
    /// the echo then comes without it, and `==> ` in crc32's output is still no prompt.
    /// (Found trying `tether run` with `=~ => $` then crc32: the reply was cut at `==> `
    /// and the CRC shown as a notification.)
    @Test func aConsumedPromptIsThePromptShownAlone() {
        var harness = SessionHarness(PromptDialect())
        harness.receive("U-Boot 2024.04\r\n=> ", at: 0)
        harness.expire(at: 100)
        let consumed = harness.consumePendingText(start: 16, count: 3, at: 110)
        #expect(consumed)
        harness.enqueue(Self.crc32, at: 110)
        harness.receive(Self.crc32 + "\r\nCRC32 for 42000000 ... 42018fff ==> ", at: 115)
        harness.expire(at: 235)
        #expect(harness.replies.isEmpty)
        harness.receive("b2aff8d0\r\n=> ", at: 240)
        harness.expire(at: 290)
        #expect(harness.replyLines == [["CRC32 for 42000000 ... 42018fff ==> b2aff8d0"]])
    }

    /// A console whose lines end LF CR (`Model: pcDuino3\n\r`): the CR of each line end is
    /// framing, not a blank line of the reply.
    @Test func lfCRLineEndsGiveNoBlankReplyLines() {
        var harness = SessionHarness(PromptDialect())
        harness.receive("=> ", at: 0)
        harness.enqueue("x", at: 10)
        harness.receive("x\n\ra\n\rb\n\rc\n\r=> ", at: 15)
        harness.expire(at: 70)
        #expect(harness.replyLines == [["a", "b", "c"]])
    }

    /// A prompt that is the end of a longer prompt line (`user@box:~$ ` for `$ `) still
    /// ends the reply after that text.
    @Test func aPromptAfterTextStillEndsTheReplyWhereItNeverCameAlone() {
        var harness = SessionHarness(PromptDialect(prompt: "$ "))
        harness.receive("user@box:~$ ", at: 0)
        harness.enqueue("uname", at: 10)
        harness.enqueue("pwd", at: 10)
        harness.receive("uname\r\nLinux\r\nuser@box:~$ ", at: 15)
        harness.expire(at: 65)
        harness.receive("pwd\r\n/home/user\r\nuser@box:~$ ", at: 70)
        harness.expire(at: 120)
        #expect(harness.replyLines == [["Linux"], ["/home/user"]])
    }
}
