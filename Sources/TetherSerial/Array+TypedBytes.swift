extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for a body that throws ``SerialError`` (the standard one
    /// rethrows untyped errors).
    func withBytes<Value>(
        _ body: (UnsafeRawBufferPointer) throws(SerialError) -> Value
    ) throws(SerialError) -> Value {
        try withUnsafeBytes { bytes in Result { () throws(SerialError) in try body(bytes) } }.get()
    }

    /// `withUnsafeMutableBytes` for a body that throws ``SerialError``.
    mutating func withMutableBytes<Value>(
        _ body: (UnsafeMutableRawBufferPointer) throws(SerialError) -> Value
    ) throws(SerialError) -> Value {
        try withUnsafeMutableBytes { bytes in Result { () throws(SerialError) in try body(bytes) } }.get()
    }
}
