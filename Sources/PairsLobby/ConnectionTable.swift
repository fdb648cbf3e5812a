/// Objects kept by connection id, in an array indexed by the id's slot.
///
/// The lobby finds a connection's client on every message it reads, and the transport finds a connection
/// on every send the lobby asks for: with a table that is an index and a comparison of numbers, where a
/// dictionary hashed the id each time. An entry remembers its connection's number, so an id whose slot has
/// since gone to a newcomer finds nothing, as a dictionary keyed by number did.
///
/// The table is generic and used from other modules (the transport's connections, the lobby's clients), so
/// its methods are `@inlinable`: without that every call went through unspecialized generic code, which
/// cost more than the hashing it replaces.
public struct ConnectionTable<Element: AnyObject> {
    /// An element and the number of the connection it belongs to (its slot is where it sits): 16 bytes,
    /// four to a cache line.
    @usableFromInline
    struct Entry {
        @usableFromInline let number: Int
        @usableFromInline let element: Element

        @inlinable
        init(number: Int, element: Element) {
            self.number = number
            self.element = element
        }
    }

    /// Indexed by slot; nil where no connection sits. As long as the highest slot in use so far.
    @usableFromInline var entries: [Entry?] = []
    /// The entries that are not nil.
    @usableFromInline var occupied = 0

    @inlinable
    public init() {}

    /// How many connections the table holds.
    @inlinable
    public var count: Int { occupied }

    @inlinable
    public var isEmpty: Bool { occupied == 0 }

    /// The element kept for `id`, or nil if there is none (never was, or removed, or its slot reused by a
    /// later connection). Setting nil removes the element kept for `id`, if any.
    @inlinable
    public subscript(id: ConnectionID) -> Element? {
        get {
            guard id.slot < entries.count, let entry = entries[id.slot], entry.number == id.value else { return nil }
            return entry.element
        }
        set {
            if let newValue {
                insert(newValue, for: id)
            } else if id.slot < entries.count, let entry = entries[id.slot], entry.number == id.value {
                entries[id.slot] = nil
                occupied -= 1
            }
        }
    }

    /// The element in `slot`, whichever connection it belongs to: for the transport's epoll set, which
    /// reports a socket by its slot alone.
    @inlinable
    public func element(inSlot slot: Int) -> Element? {
        slot < entries.count ? entries[slot]?.element : nil
    }

    /// Every element, in slot order.
    @inlinable
    public var elements: [Element] {
        entries.compactMap { $0?.element }
    }

    @usableFromInline
    mutating func insert(_ element: Element, for id: ConnectionID) {
        if id.slot >= entries.count {
            entries.append(contentsOf: repeatElement(nil, count: id.slot + 1 - entries.count))
        }
        if let held = entries[id.slot] {
            // Only the same connection may be replaced: two open connections never share a slot.
            precondition(held.number == id.value, "slot \(id.slot) holds c\(held.number) and was given to \(id)")
        } else {
            occupied += 1
        }
        entries[id.slot] = Entry(number: id.value, element: element)
    }
}
