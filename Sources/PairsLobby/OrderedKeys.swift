/// Keys kept in order, with insertion, removal and "the next `n` keys after this one" in time that does
/// not grow with the number of keys (beyond a logarithm): what the room list pages through.
///
/// The keys live in sorted chunks of at most `maxChunk`; a chunk that grows past it splits in two, an
/// empty one goes. Finding a key is a binary search over the chunks' last keys, then within one chunk;
/// inserting or removing moves at most one chunk's worth of keys (and, on a split, the chunks array's
/// references). A balanced tree would do as well, with more code.
struct OrderedKeys<Key: Comparable> {
    /// Keys per chunk at most: small enough that moving a chunk's keys costs little, large enough that the
    /// chunks array stays short (20,000 keys fill about 80 to 160 chunks).
    static var maxChunk: Int { 256 }

    private var chunks: [[Key]] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Adds `key`; false when it was there already.
    @discardableResult
    mutating func insert(_ key: Key) -> Bool {
        guard !chunks.isEmpty else {
            chunks = [[key]]
            count = 1
            return true
        }
        // The first chunk whose last key is not below `key`, or the last chunk when every key is below it.
        let chunkIndex = min(firstChunk { !($0 < key) }, chunks.count - 1)
        let position = Self.firstIndex(in: chunks[chunkIndex]) { !($0 < key) }
        if position < chunks[chunkIndex].count, chunks[chunkIndex][position] == key { return false }
        chunks[chunkIndex].insert(key, at: position)
        count += 1
        if chunks[chunkIndex].count > Self.maxChunk {
            let upper = Array(chunks[chunkIndex][(Self.maxChunk / 2)...])
            chunks[chunkIndex].removeSubrange((Self.maxChunk / 2)...)
            chunks.insert(upper, at: chunkIndex + 1)
        }
        return true
    }

    /// Removes `key`; false when it was not there.
    @discardableResult
    mutating func remove(_ key: Key) -> Bool {
        let chunkIndex = firstChunk { !($0 < key) }
        guard chunkIndex < chunks.count else { return false }
        let position = Self.firstIndex(in: chunks[chunkIndex]) { !($0 < key) }
        guard position < chunks[chunkIndex].count, chunks[chunkIndex][position] == key else { return false }
        chunks[chunkIndex].remove(at: position)
        count -= 1
        if chunks[chunkIndex].isEmpty { chunks.remove(at: chunkIndex) }
        return true
    }

    /// The first `limit` keys above `after` (from the first key when nil), in order.
    func keys(after: Key?, limit: Int) -> [Key] {
        var result: [Key] = []
        result.reserveCapacity(min(limit, count))
        var chunkIndex = 0
        var position = 0
        if let after {
            chunkIndex = firstChunk { $0 > after }
            if chunkIndex < chunks.count { position = Self.firstIndex(in: chunks[chunkIndex]) { $0 > after } }
        }
        while result.count < limit, chunkIndex < chunks.count {
            let chunk = chunks[chunkIndex]
            let end = min(chunk.count, position + (limit - result.count))
            result.append(contentsOf: chunk[position..<end])
            chunkIndex += 1
            position = 0
        }
        return result
    }

    /// The index of the first chunk whose last key satisfies `predicate` (which must hold from some chunk
    /// on), or `chunks.count`.
    private func firstChunk(where predicate: (Key) -> Bool) -> Int {
        var low = 0, high = chunks.count
        while low < high {
            let middle = (low + high) / 2
            if predicate(chunks[middle][chunks[middle].count - 1]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    private static func firstIndex(in chunk: [Key], where predicate: (Key) -> Bool) -> Int {
        var low = 0, high = chunk.count
        while low < high {
            let middle = (low + high) / 2
            if predicate(chunk[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
