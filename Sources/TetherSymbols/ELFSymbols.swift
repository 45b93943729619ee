import CLibDW
import Glibc
import Synchronization
import TetherPresenter

/// A firmware's ELF file, opened with elfutils' libdwfl as an offline file (not as a
/// process of this machine), so an ARM, Xtensa or RISC-V image is read as well as the
/// host's: the functions, files and lines of code addresses, inline frames included,
/// from its DWARF debug information, or the symbol table's function names alone when it
/// has none (a stripped file).
///
/// Lookups take a lock: libdwfl's handle is not safe to share between threads.
public final class ELFSymbols: AddressSymbolizing, @unchecked Sendable {
    /// The file's path, as given.
    public let path: String
    /// Whether the file has DWARF debug information (else names come from its symbols).
    public let hasDebugInformation: Bool
    /// Whether the file is for 32-bit ARM (`EM_ARM`), whose Thumb symbols are odd.
    private let isARM: Bool
    private let dwfl: OpaquePointer
    private let module: OpaquePointer
    private let lock = Mutex(())

    /// Opens `path`.
    ///
    /// - Throws: ``ELFFileError``: the file is missing or unreadable, or not an ELF file.
    public init(path: String) throws(ELFFileError) {
        self.path = path
        guard access(path, R_OK) == 0 else {
            throw ELFFileError(path: path, reason: String(cString: strerror(errno)))
        }
        var callbacks = Dwfl_Callbacks(
            find_elf: nil, find_debuginfo: Self.noSeparateDebugInformation,
            section_address: dwfl_offline_section_address, debuginfo_path: nil)
        guard let dwfl = withUnsafePointer(to: &callbacks, { dwfl_begin($0) }) else {
            throw ELFFileError(path: path, reason: String(cString: dwfl_errmsg(-1)))
        }
        dwfl_report_begin(dwfl)
        guard let module = dwfl_report_offline(dwfl, "", path, -1) else {
            let reason = String(cString: dwfl_errmsg(-1))
            dwfl_end(dwfl)
            throw ELFFileError(path: path, reason: reason == "no error" ? "not an ELF file" : reason)
        }
        dwfl_report_end(dwfl, nil, nil)
        self.dwfl = dwfl
        self.module = module
        var bias: Dwarf_Addr = 0
        hasDebugInformation = dwfl_module_getdwarf(module, &bias) != nil
        var header = GElf_Ehdr()
        isARM =
            dwfl_module_getelf(module, &bias).flatMap { gelf_getehdr($0, &header) }?.pointee.e_machine == UInt16(EM_ARM)
        // libdwfl keeps the callbacks' address only while reporting; nothing more is read.
        _ = callbacks
    }

    deinit { dwfl_end(dwfl) }

    /// The code at `address`: its frames, innermost first (an inlined function, then
    /// each function it was inlined into, to the real function), or
    /// ``AddressLookup/outside`` when no function of the file holds it.
    public func lookUp(_ address: UInt64) -> AddressLookup {
        lock.withLock { _ in
            var start: Dwarf_Addr = 0
            var end: Dwarf_Addr = 0
            dwfl_module_info(module, nil, &start, &end, nil, nil, nil, nil)
            guard address >= start, address < end else { return .outside }
            let frames = debugFrames(at: address)
            if !frames.isEmpty { return .frames(frames) }
            guard let name = symbolName(at: address) else { return .outside }
            return .frames([CodeFrame(function: name)])
        }
    }

    /// The function symbol that holds `address`, from the symbol table. On ARM a Thumb
    /// function's symbol value has bit 0 set (its start + 1, ARM's ELF ABI), and an
    /// ARM function's instructions are 4-aligned: the symbol holding `address | 1` is
    /// the function holding `address` in both.
    private func symbolName(at address: UInt64) -> String? {
        var symbol = GElf_Sym()
        var offset: GElf_Off = 0
        let key = isARM ? address | 1 : address
        guard let name = dwfl_module_addrinfo(module, key, &offset, &symbol, nil, nil, nil) else { return nil }
        guard Int32(symbol.st_info & 0xF) == STT_FUNC || (symbol.st_info & 0xF) == 0 && symbol.st_size > 0 else {
            return nil
        }
        return String(cString: name)
    }

    /// The frames DWARF gives for `address` (empty without debug information there):
    /// the innermost at the address's own line, each caller at the call's line — as
    /// elfutils' `eu-addr2line -i` walks them: the innermost scope, then the scopes
    /// that hold it in the tree of concrete instances (`dwarf_getscopes` follows an
    /// inline instance to its abstract origin instead).
    private func debugFrames(at address: UInt64) -> [CodeFrame] {
        var bias: Dwarf_Addr = 0
        guard let cu = dwfl_module_addrdie(module, address, &bias) else { return [] }
        var scopes: UnsafeMutablePointer<Dwarf_Die>?
        let found = dwarf_getscopes(cu, address - bias, &scopes)
        guard found > 0, let innermost = scopes?.pointee else {
            free(scopes)
            return []
        }
        free(scopes)
        var chain: UnsafeMutablePointer<Dwarf_Die>?
        var die = innermost
        let count = Int(dwarf_getscopes_die(&die, &chain))
        defer { free(chain) }
        guard count > 0, let chain else { return [] }
        var files: OpaquePointer?
        var fileCount = 0
        _ = dwarf_getsrcfiles(cu, &files, &fileCount)
        var location = sourceLocation(at: address)
        var frames: [CodeFrame] = []
        for index in 0..<count {
            let scope = chain + index
            let tag = dwarf_tag(scope)
            guard tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram || tag == DW_TAG_entry_point else {
                continue
            }
            let name = Self.functionName(scope) ?? symbolName(at: address) ?? "??"
            frames.append(
                CodeFrame(
                    function: name, file: location?.file, line: location?.line,
                    isInlined: tag == DW_TAG_inlined_subroutine))
            guard tag == DW_TAG_inlined_subroutine else { break }
            location = Self.callSite(of: scope, files: files)
        }
        return frames
    }

    /// The source file and line the line table gives for `address`.
    private func sourceLocation(at address: UInt64) -> (file: String, line: Int)? {
        guard let line = dwfl_module_getsrc(module, address) else { return nil }
        var number: Int32 = 0
        guard let file = dwfl_lineinfo(line, nil, &number, nil, nil, nil) else { return nil }
        return (String(cString: file), Int(number))
    }

    /// Where an inlined function's code was called: `DW_AT_call_file` and `DW_AT_call_line`.
    private static func callSite(of scope: UnsafeMutablePointer<Dwarf_Die>, files: OpaquePointer?)
        -> (file: String, line: Int)?
    {
        var attribute = Dwarf_Attribute()
        var fileIndex: Dwarf_Word = 0
        var line: Dwarf_Word = 0
        guard dwarf_attr(scope, UInt32(DW_AT_call_file), &attribute) != nil,
            dwarf_formudata(&attribute, &fileIndex) == 0,
            dwarf_attr(scope, UInt32(DW_AT_call_line), &attribute) != nil, dwarf_formudata(&attribute, &line) == 0,
            let files, let name = dwarf_filesrc(files, Int(fileIndex), nil, nil)
        else { return nil }
        return (String(cString: name), Int(line))
    }

    /// A function's name: its own, or its abstract origin's for an inline instance.
    private static func functionName(_ scope: UnsafeMutablePointer<Dwarf_Die>) -> String? {
        var attribute = Dwarf_Attribute()
        if dwarf_attr_integrate(scope, UInt32(DW_AT_name), &attribute) != nil, let name = dwarf_formstring(&attribute) {
            return String(cString: name)
        }
        return dwarf_diename(scope).map { String(cString: $0) }
    }

    /// libdwfl's `find_debuginfo` callback: no separate debug file is looked for (not
    /// in `/usr/lib/debug`, not over the network), so a stripped firmware file gives its
    /// symbols' names alone.
    private static let noSeparateDebugInformation:
        @convention(c) (
            OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafePointer<CChar>?, Dwarf_Addr,
            UnsafePointer<CChar>?, UnsafePointer<CChar>?, GElf_Word, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        ) -> Int32 = { _, _, _, _, _, _, _, _ in -1 }
}

/// The `--elf` file cannot be used: missing, unreadable or not an ELF file.
public struct ELFFileError: Error, CustomStringConvertible, Sendable {
    /// The path as given.
    public var path: String
    /// Why, as the C library or libdwfl says.
    public var reason: String

    public var description: String { "cannot read the ELF file '\(path)': \(reason)" }
}
