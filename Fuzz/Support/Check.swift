/// Stops the process with `message` when `condition` is false, in every build configuration.
///
/// The fuzz targets are built optimized, where a failed `precondition` traps without its message; libFuzzer
/// reports a crash either way and saves the input, but the message says which property broke.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

/// `bytes` with anything outside printable ASCII as `\xNN`, for messages that name an input.
func shown(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { byte in
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }.joined()
}
