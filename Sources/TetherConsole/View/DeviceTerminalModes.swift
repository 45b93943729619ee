/// The terminal modes a device has changed through raw mode's passthrough
/// (``PassthroughFilter``), and the bytes that put each back to its default when
/// `connect` ends, so the user's terminal is left as it was found.
///
/// Tracked, each as its last setting: DEC private modes (`ESC [ ? n h` / `l`) — cursor
/// keys (1), autowrap (7), cursor visible (25), alternate screen (47, 1047, 1049), mouse
/// reporting (1000, 1002, 1003, 1005, 1006, 1015), focus events (1004), bracketed paste
/// (2004); insert mode (`ESC [ 4 h`); the keypad (`ESC =` / `ESC >`); the scroll region
/// (`ESC [ t ; b r`); character attributes (SGR, `ESC [ … m`); the G0 character set
/// (`ESC ( 0`, line drawing). The undo leaves the alternate screen first (its own saved
/// cursor comes back), then resets the scroll region with the cursor saved around it
/// (DECSTBM homes the cursor), the attributes and the other modes (ECMA-48, xterm's
/// ctlseqs).
struct DeviceTerminalModes: Equatable {
    /// The DEC private modes raw mode passes; a sequence with any other is filtered.
    static let privateModes: Set<Int> = [1, 7, 25, 47, 1047, 1049, 1000, 1002, 1003, 1004, 1005, 1006, 1015, 2004]
    /// The private modes whose default is set (autowrap, a visible cursor).
    private static let setByDefault: Set<Int> = [7, 25]
    /// The alternate screen's modes, undone first.
    private static let alternateScreens = [1049, 1047, 47]

    /// Each private mode's setting, when it is not its default.
    private var changedPrivateModes: [Int: Bool] = [:]
    private var insertMode = false
    private var applicationKeypad = false
    private var scrollRegion = false
    private var attributes = false
    private var lineDrawing = false

    /// Notes a CSI sequence passed: `parameters` are the bytes between `ESC [` and
    /// `final` (a leading `?` included).
    mutating func pass(parameters: [UInt8], final: UInt8) {
        let isPrivate = parameters.first == UInt8(ascii: "?")
        let numbers = Self.numbers(isPrivate ? Array(parameters.dropFirst()) : parameters)
        switch (isPrivate, final) {
        case (true, UInt8(ascii: "h")), (true, UInt8(ascii: "l")):
            let isSet = final == UInt8(ascii: "h")
            for mode in numbers {
                changedPrivateModes[mode] = Self.setByDefault.contains(mode) == isSet ? nil : isSet
            }
        case (false, UInt8(ascii: "h")), (false, UInt8(ascii: "l")):
            if numbers.contains(4) { insertMode = final == UInt8(ascii: "h") }
        case (false, UInt8(ascii: "r")):
            scrollRegion = !numbers.isEmpty
        case (false, UInt8(ascii: "m")):
            // Each SGR sequence is applied in turn; one that ends in a reset leaves none.
            attributes = !(numbers.isEmpty || numbers.last == 0)
        default:
            break
        }
    }

    /// Notes an escape sequence other than CSI passed: `ESC` then `bytes`.
    mutating func pass(escape bytes: [UInt8]) {
        switch bytes {
        case [UInt8(ascii: "=")]: applicationKeypad = true
        case [UInt8(ascii: ">")]: applicationKeypad = false
        case [UInt8(ascii: "("), UInt8(ascii: "0")]: lineDrawing = true
        case [UInt8(ascii: "("), UInt8(ascii: "B")]: lineDrawing = false
        default: break
        }
    }

    /// The bytes that undo every change noted; empty when there is none.
    var undo: [UInt8] {
        var text = ""
        for mode in Self.alternateScreens where changedPrivateModes[mode] == true { text += "\u{1B}[?\(mode)l" }
        if scrollRegion { text += "\u{1B}7\u{1B}[r\u{1B}8" }
        if attributes { text += "\u{1B}[0m" }
        for (mode, isSet) in changedPrivateModes.sorted(by: { $0.key < $1.key })
        where !Self.alternateScreens.contains(mode) {
            text += "\u{1B}[?\(mode)\(isSet ? "l" : "h")"
        }
        if insertMode { text += "\u{1B}[4l" }
        if applicationKeypad { text += "\u{1B}>" }
        if lineDrawing { text += "\u{1B}(B" }
        return Array(text.utf8)
    }

    /// The numbers of `;`-separated parameters (`:` sub-parameters are part of theirs);
    /// an empty one is 0.
    static func numbers(_ parameters: [UInt8]) -> [Int] {
        guard !parameters.isEmpty else { return [] }
        return parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { field in
            Int(String(decoding: field.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self)) ?? 0
        }
    }
}
