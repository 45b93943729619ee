import Testing

@testable import TetherSimulator

/// The built-in `prompt-console` profile (a U-Boot-like shell with the prompt `=> `).
@Suite struct PromptConsoleProfileTests {
    let console: ProfileHarness

    init() throws {
        console = try ProfileHarness("prompt-console")
    }

    @Test func echoesAnswersThenPrompts() {
        #expect(
            console.exchange("version\r")
                == "version\r\nTBoot 2024.04-sim (tether simulator)\r\n\r\ngcc (tether) 12.2.0\r\nGNU ld (tether) 2.40\r\n=> "
        )
    }

    @Test func setenvChangesWhatPrintenvShows() {
        #expect(console.exchange("setenv bootdelay 5\r") == "setenv bootdelay 5\r\n=> ")
        let listing = console.exchange("printenv\r")
        #expect(listing.hasPrefix("printenv\r\nbaudrate=115200\r\nbootcmd=run distro_bootcmd\r\nbootdelay=5\r\n"))
        #expect(listing.hasSuffix("\r\nEnvironment size: 112/8188 bytes\r\n=> "))
    }

    @Test func badInputGetsTheConsolesOwnMessages() {
        #expect(console.exchange("boot\r") == "boot\r\nUnknown command 'boot' - try 'help'\r\n=> ")
        #expect(
            console.exchange("setenv bootdelay 99\r")
                == "setenv bootdelay 99\r\n## Error: value out of range in 'setenv bootdelay 99'\r\n=> ")
        #expect(console.exchange("setenv color blue\r").contains("## Error: cannot set 'color'"))
        #expect(console.exchange("setenv\r") == "setenv\r\nUsage: setenv <name> <value>\r\n=> ")
    }

    @Test func resetRestoresTheEnvironment() {
        _ = console.exchange("setenv ipaddr 10.0.0.2\r")
        #expect(console.exchange("reset\r").hasPrefix("reset\r\nresetting ...\r\n"))
        #expect(console.exchange("printenv\r").contains("ipaddr=192.168.1.50\r\n"))
    }
}
