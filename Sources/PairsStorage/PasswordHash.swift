import CCrypt

/// Salted password hashes from the system's crypt(3) (libxcrypt): yescrypt where the library has it,
/// SHA-512-crypt otherwise. The store keeps only the hash, never the password.
///
/// Hashing is slow on purpose (yescrypt costs milliseconds of CPU and megabytes of memory per call), so that
/// guessing passwords from a stolen database is slow too. Callers must not hash or verify on a queue that
/// anything latency-sensitive waits on, such as the one that runs the rooms.
enum PasswordHash {
    /// The longest password in UTF-8 bytes: plenty for a passphrase, and below libxcrypt's own limit
    /// (`CRYPT_MAX_PASSPHRASE_SIZE`, 512 with the terminating NUL), so a long one is refused, not cut.
    static let maxPasswordBytes = 256

    /// The hash methods tried in order: yescrypt (libxcrypt's default, memory-hard), then SHA-512-crypt,
    /// which every crypt(3) on Linux has.
    static let methods = ["$y$", "$6$"]

    /// A new salted hash of `password`, with a fresh random salt from the system.
    static func make(_ password: String) throws(PasswordError) -> String {
        try check(password)
        for method in methods {
            guard let setting = salt(for: method) else { continue }
            if let hash = crypt(password, setting: setting) { return hash }
        }
        throw .hashingUnavailable
    }

    /// Whether `password` is the one `hash` was made from. Reads every byte of both hashes whatever they
    /// hold, so the time taken says nothing about where they differ.
    static func verify(_ password: String, against hash: String) -> Bool {
        guard (try? check(password)) != nil, let computed = crypt(password, setting: hash) else { return false }
        let left = Array(computed.utf8)
        let right = Array(hash.utf8)
        var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }

    static func check(_ password: String) throws(PasswordError) {
        let bytes = password.utf8.count
        guard bytes > 0 else { throw .empty }
        guard bytes <= maxPasswordBytes else { throw .tooLong(bytes: bytes) }
        // A C string ends at its first NUL: the rest of the password would be ignored.
        guard !password.utf8.contains(0) else { throw .containsNul }
    }

    /// A setting string for `method` with a random salt and the library's default cost, or nil when the
    /// library does not have the method.
    private static func salt(for method: String) -> String? {
        var output = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        // Count 0 asks for the default cost; no random bytes given: the library draws them from the system.
        guard crypt_gensalt_rn(method, 0, nil, 0, &output, Int32(output.count)) != nil else { return nil }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `password` hashed with `setting` (a salt, or a stored hash to compare against), or nil on failure.
    /// `crypt_rn` works in a buffer of ours, so concurrent calls do not share the library's static one.
    private static func crypt(_ password: String, setting: String) -> String? {
        let size = MemoryLayout<crypt_data>.size
        let data = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<crypt_data>.alignment)
        defer {
            // The buffer held the password: wipe it before giving the memory back.
            data.initializeMemory(as: UInt8.self, repeating: 0, count: size)
            data.deallocate()
        }
        data.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        guard let result = crypt_rn(password, setting, data, Int32(size)) else { return nil }
        return String(cString: result)
    }
}

/// A password the store cannot hash.
public enum PasswordError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case tooLong(bytes: Int)
    case containsNul
    /// The system's crypt(3) has none of the methods tried: a broken installation.
    case hashingUnavailable

    public var description: String {
        switch self {
        case .empty: "the password is empty"
        case .tooLong(let bytes): "a password has at most \(PasswordHash.maxPasswordBytes) bytes, not \(bytes)"
        case .containsNul: "a password cannot contain a NUL character"
        case .hashingUnavailable: "the system's crypt(3) offers neither yescrypt nor SHA-512-crypt"
        }
    }
}
