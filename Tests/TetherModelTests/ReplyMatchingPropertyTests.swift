import Testing

@testable import TetherModel

/// Property: however a transcript is split into reads, and wherever unsolicited lines
/// are inserted between its lines, every dialect matches the same replies, and the
/// unsolicited lines come out as notifications, each once, in order.
@Suite struct ReplyMatchingPropertyTests {
    struct Exchange {
        var command: String
        var response: String
        var expectedLines: [String]
        var expectedFinal: String?
    }

    struct Scenario: CustomTestStringConvertible {
        var dialect: any Dialect
        var exchanges: [Exchange]
        var unsolicited: [String]
        var testDescription: String { dialect.name }
    }

    static let scenarios: [Scenario] = [
        Scenario(
            dialect: ATDialect(),
            exchanges: [
                Exchange(
                    command: "AT+CSQ", response: "\r\n+CSQ: 23,99\r\n\r\nOK\r\n", expectedLines: ["+CSQ: 23,99"],
                    expectedFinal: "OK"),
                Exchange(
                    command: "AT+CGMI", response: "AT+CGMI\r\r\nACME\r\n\r\nOK\r\n", expectedLines: ["ACME"],
                    expectedFinal: "OK"),
                Exchange(
                    command: "AT+CREG?", response: "\r\n+CREG: 2,1\r\n\r\nOK\r\n", expectedLines: ["+CREG: 2,1"],
                    expectedFinal: "OK"),
                Exchange(
                    command: "AT+CPIN?", response: "\r\n+CME ERROR: 10\r\n", expectedLines: [],
                    expectedFinal: "+CME ERROR: 10"),
                Exchange(
                    command: "ATI", response: "\r\nACME\r\nModel X\r\n\r\nOK\r\n", expectedLines: ["ACME", "Model X"],
                    expectedFinal: "OK"),
            ],
            unsolicited: [
                "\r\nRING\r\n", "\r\n+CMTI: \"SM\",3\r\n", "\r\n+CREG: 1\r\n", "\r\n+CLIP: \"+3312345\",145\r\n",
            ]),
        Scenario(
            dialect: SCPIDialect(notificationPattern: try! LinePattern("^!")),
            exchanges: [
                Exchange(command: "*IDN?", response: "ACME,PSU-1,0001,1.0\n", expectedLines: ["ACME,PSU-1,0001,1.0"]),
                Exchange(command: "VOLT?;CURR?", response: "5.000\r\n1.000\r\n", expectedLines: ["5.000", "1.000"]),
                Exchange(command: "MEAS:VOLT?;CURR?", response: "2.09E+1;1.0E-1\n", expectedLines: ["2.09E+1;1.0E-1"]),
            ],
            unsolicited: ["!OVP tripped\n", "!TEMP 41\r\n"]),
        Scenario(
            dialect: PromptDialect(prompt: "> ", notificationPattern: try! LinePattern(#"^\[\s*\d+\.\d+\]"#)),
            exchanges: [
                Exchange(command: "ver", response: "> ver\r\nfw 1.2.3\r\n> ", expectedLines: ["fw 1.2.3"]),
                Exchange(
                    command: "help", response: "help\r\nver - version\r\n\r\nhelp - this\r\n> ",
                    expectedLines: ["ver - version", "", "help - this"]),
            ],
            unsolicited: ["[    1.000] usb 1-1: new device\r\n", "[   12.345] eth0: link up\n"]),
        Scenario(
            dialect: LineDialect(notificationPattern: try! LinePattern("^!")),
            exchanges: [
                Exchange(command: "MEAS?", response: "12.345\n", expectedLines: ["12.345"]),
                Exchange(command: "ID?", response: "AB\u{0}CD\r\n", expectedLines: ["AB\u{0}CD"]),
                Exchange(command: "READ", response: "READ\r\nV=1.234\r", expectedLines: ["V=1.234"]),
            ],
            unsolicited: ["!READING temp=21\r\n", "!TICK\n"]),
        // The rules for what real devices send (docs/DIALECTS.md): ESP-AT and vendor
        // final codes, control sequences, a shell prompt and a prompt inside output.
        Scenario(
            dialect: ATDialect(extraErrorCodes: ["ABORTED"]),
            exchanges: [
                Exchange(
                    command: "AT+CWJAP=\"lab\",\"x\"",
                    response: "AT+CWJAP=\"lab\",\"x\"\r\r\nWIFI DISCONNECT\r\n\r\nFAIL\r\n",
                    expectedLines: ["WIFI DISCONNECT"], expectedFinal: "FAIL"),
                Exchange(
                    command: "AT+CIPSEND=4", response: "\r\nSEND FAIL\r\n", expectedLines: [],
                    expectedFinal: "SEND FAIL"),
                Exchange(command: "AT+QX", response: "\r\nABORTED\r\n", expectedLines: [], expectedFinal: "ABORTED"),
            ],
            unsolicited: ["\r\nRING\r\n", "\r\n+CMTI: \"SM\",3\r\n"]),
        Scenario(
            dialect: PromptDialect(prompt: "pi@lab:~$ ", notificationPattern: try! LinePattern(#"^\[\s*\d+\.\d+\]"#)),
            exchanges: [
                Exchange(
                    command: "hostname",
                    response: "hostname\r\n\u{1B}[?2004l\rlab-7\r\n\u{1B}[?2004hpi@lab:~$ ", expectedLines: ["lab-7"]),
                Exchange(
                    command: "false", response: "false\r\n\u{1B}[1;31mFAIL\u{1B}[0m\r\npi@lab:~$ ",
                    expectedLines: ["FAIL"]),
            ],
            unsolicited: ["[    1.000] usb 1-1: new device\r\n"]),
        Scenario(
            dialect: PromptDialect(notificationPattern: try! LinePattern(#"^\[\s*\d+\.\d+\]"#)),
            exchanges: [
                Exchange(
                    command: "printenv bootcmd", response: "printenv bootcmd\r\nbootcmd=run a => b\r\n=> ",
                    expectedLines: ["bootcmd=run a => b"]),
                Exchange(
                    command: "version", response: "version\r\nU-Boot 2024.01\r\n=> ", expectedLines: ["U-Boot 2024.01"]),
            ],
            unsolicited: ["[   12.345] eth0: link up\r\n"]),
        Scenario(
            dialect: LineDialect(notificationPattern: try! LinePattern("^!")),
            exchanges: [
                Exchange(command: "TEST", response: "\u{1B}[1;31mFAIL\u{1B}[0m\r\n", expectedLines: ["FAIL"])
            ],
            unsolicited: ["!READING temp=21\r\n"]),
    ]

    @Test(arguments: scenarios)
    func randomSplitsAndInterleavingsMatchTheSame(scenario: Scenario) {
        var random = SplitMix64(seed: 0x7E7E_0003)
        for _ in 0..<300 {
            var harness = SessionHarness(scenario.dialect)
            var inserted: [String] = []
            var time = 0
            for exchange in scenario.exchanges {
                harness.enqueue(exchange.command, timeout: nil, at: time)
                let response = Array(exchange.response.utf8)
                let boundaries = [0] + response.indices.filter { response[$0] == 0x0A }.map { $0 + 1 }
                var bytes: [UInt8] = []
                var start = 0
                for boundary in boundaries {
                    bytes += response[start..<boundary]
                    start = boundary
                    if random.next() % 3 == 0 {
                        let urc = scenario.unsolicited[Int(random.next() % UInt64(scenario.unsolicited.count))]
                        bytes += Array(urc.utf8)
                        inserted.append(urc)
                    }
                }
                bytes += response[start...]
                for chunk in Self.split(bytes, using: &random) {
                    time += 1
                    harness.receive(chunk, at: time)
                }
                // A prompt counts once the line is quiet after it.
                time += 100
                harness.expire(at: time)
            }
            #expect(
                harness.writtenText
                    == scenario.exchanges.map { String(decoding: scenario.dialect.encode($0.command), as: UTF8.self) }
                    .joined())
            #expect(harness.replies.map(\.command) == scenario.exchanges.map(\.command))
            #expect(harness.replyLines == scenario.exchanges.map(\.expectedLines))
            #expect(harness.replies.map { $0.reply.finalResult?.text } == scenario.exchanges.map(\.expectedFinal))
            #expect(harness.notificationTexts == inserted.map(Self.lineText))
            #expect(harness.lateReplies.isEmpty)
            if harness.notificationTexts != inserted.map(Self.lineText) { return }  // report the first failing run only
        }
    }

    /// Splits `bytes` into reads of random sizes: often single bytes, sometimes all.
    static func split(_ bytes: [UInt8], using random: inout SplitMix64) -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            let size = random.next() % 4 == 0 ? rest.count : Int(random.next() % 6) + 1
            chunks.append(Array(rest.prefix(size)))
            rest = rest.dropFirst(size)
        }
        return chunks
    }

    /// The text of a framed unsolicited line (`"\r\nRING\r\n"` → `RING`).
    static func lineText(_ framed: String) -> String {
        String(framed.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
    }
}

/// A small seeded generator (SplitMix64), so every run sees the same sequence.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
