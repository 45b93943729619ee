import TetherPresenter

/// The lines that follow a line with crash addresses (`--elf`) in the text views: one
/// per address, `0x400d1234: function at file:line`, then one per function it was
/// inlined into, as `addr2line -p -i` writes them (docs/FIRMWARE.md).
enum SymbolLines {
    /// The lines for `symbols`, each indented by `indent` spaces, without line ends.
    static func lines(for symbols: [AddressSymbol], indent: Int = 2) -> [String] {
        let margin = String(repeating: " ", count: indent)
        return symbols.flatMap { symbol -> [String] in
            let head = margin + symbol.hexAddress + ": "
            switch symbol.lookup {
            case .outside:
                return [head + "outside the ELF file"]
            case .frames(let frames):
                let under = String(repeating: " ", count: head.count)
                return frames.enumerated().map { index, frame in
                    index == 0 ? head + frame.description : under + "(inlined by) " + frame.description
                }
            }
        }
    }
}
