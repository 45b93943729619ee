import TetherTransfer

/// A command of `connect` typed after the escape key; it acts on tether, never
/// reaches the device.
enum LocalCommand: CaseIterable {
    case help
    case quit
    case sendBreak
    case toggleDTR
    case toggleRTS
    case pulseDTR
    case runReset
    case changeBaudRate
    case showModemLines
    case showSettings
    case toggleHex
    case toggleTimestamps
    case toggleLocalEcho
    case toggleLog
    case sendFile
    case sendHex
    case sendByYModem
    case sendByXModem
    case receiveByYModem
    case switchMode

    /// The key that runs it after the escape key.
    var key: Character {
        switch self {
        case .help: "?"
        case .quit: "q"
        case .sendBreak: "b"
        case .toggleDTR: "d"
        case .toggleRTS: "r"
        case .pulseDTR: "p"
        case .runReset: "R"
        case .changeBaudRate: "B"
        case .showModemLines: "L"
        case .showSettings: "c"
        case .toggleHex: "h"
        case .toggleTimestamps: "t"
        case .toggleLocalEcho: "e"
        case .toggleLog: "l"
        case .sendFile: "f"
        case .sendHex: "w"
        case .sendByYModem: "y"
        case .sendByXModem: "x"
        case .receiveByYModem: "Y"
        case .switchMode: "m"
        }
    }

    /// One line of help.
    var summary: String {
        switch self {
        case .help: "show this help"
        case .quit: "quit (exit 0)"
        case .sendBreak: "send a break (250 ms)"
        case .toggleDTR: "toggle DTR"
        case .toggleRTS: "toggle RTS"
        case .pulseDTR: "pulse DTR: drop it for 100 ms (resets Arduino-style boards)"
        case .runReset: "run a reset sequence: esptool-classic, dtr-pulse… or D0|R1|W0.1… (--reset)"
        case .changeBaudRate: "change the baud rate"
        case .showModemLines: "show the modem lines (DTR, RTS, CTS, DSR, DCD, RI)"
        case .showSettings: "show the settings in force"
        case .toggleHex: "toggle the hex view of received bytes"
        case .toggleTimestamps: "toggle timestamps"
        case .toggleLocalEcho: "toggle local echo of typed keys (raw mode)"
        case .toggleLog: "start or stop the log file (--log FILE, or tether-DATE.jsonl)"
        case .sendFile: "send a file's bytes as they are"
        case .sendHex: "send bytes typed as hex pairs (7f 00 ff)"
        case .sendByYModem: "send a file by YMODEM (U-Boot's loady, rb); Ctrl-C cancels"
        case .sendByXModem: "send a file by XMODEM-1K (U-Boot's loadx, rx -c); Ctrl-C cancels"
        case .receiveByYModem: "receive files by YMODEM into the current folder (sb); Ctrl-C cancels"
        case .switchMode: "switch between raw and line mode"
        }
    }

    /// The question it asks on the terminal before it runs (a file's path, a baud rate,
    /// hex bytes); `nil` for a command that runs at once.
    var question: String? {
        switch self {
        case .sendFile: "send file: "
        case .changeBaudRate: "baud rate: "
        case .runReset: "reset sequence: "
        case .sendHex: "hex bytes: "
        case .sendByYModem: "send by ymodem: "
        case .sendByXModem: "send by xmodem-1k: "
        default: nil
        }
    }

    /// Whether its question asks for a file's path: Tab completes it, and a leading `~`
    /// is the home folder (``PathCompletion``).
    var asksForPath: Bool {
        switch self {
        case .sendFile, .sendByYModem, .sendByXModem: true
        default: false
        }
    }

    /// The protocol of a file transfer command (docs/TRANSFERS.md); `nil` for the others.
    var transferProtocol: TransferProtocol? {
        switch self {
        case .sendByYModem, .receiveByYModem: .ymodem
        case .sendByXModem: .xmodem1K
        default: nil
        }
    }

    /// The command for `key`, or `nil`.
    init?(key: UInt8) {
        guard let command = Self.allCases.first(where: { $0.key.asciiValue == key }) else { return nil }
        self = command
    }

    /// The help listing every command, for the escape key `escape` (Ctrl-T ?).
    static func help(escape: UInt8) -> String {
        "Local commands: press \(EscapeKeyFilter.name(of: escape)), then\n" + listing(escape: escape)
    }

    /// One line per command, `  KEY  summary`, and the escape key itself last: what
    /// the escape key's `?`, `connect --help` and the man page list
    /// (``ConsoleOptions/keysHelp``).
    static func listing(escape: UInt8) -> String {
        let name = EscapeKeyFilter.name(of: escape)
        var text = ""
        for command in allCases {
            text += "  \(command.key)  \(command.summary)\n"
        }
        text += "  \(name)  send \(name) itself to the device\n"
        return text
    }
}
