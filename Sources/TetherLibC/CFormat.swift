import Glibc

/// printf-style formatting of numbers through the C library's `vsnprintf`, where
/// Foundation's `String(format:)` would link full Foundation (and its ICU) into the
/// executables.
public enum CFormat {
    /// `arguments` formatted by `format` (C `printf` conversions, e.g. `%.2f`, `%.3e`).
    public static func string(_ format: String, _ arguments: CVarArg...) -> String {
        withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 64)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            guard needed >= buffer.count else { return text(buffer, count: needed) }
            buffer = [CChar](repeating: 0, count: needed + 1)
            return withVaList(arguments) { again in
                _ = vsnprintf(&buffer, buffer.count, format, again)
                return text(buffer, count: needed)
            }
        }
    }

    /// The first `count` bytes of `buffer` as UTF-8 text.
    private static func text(_ buffer: [CChar], count: Int) -> String {
        String(decoding: buffer.prefix(max(0, count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
