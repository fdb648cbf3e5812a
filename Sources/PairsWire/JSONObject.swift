/// A JSON object: its members in the order they were written.
///
/// An ordered list rather than a `Dictionary` because protocol objects have a handful of members, where a
/// linear scan beats hashing, and because keeping the order makes encoding deterministic: the same value
/// always produces the same bytes, which tests and logs rely on.
///
/// Two objects are equal when they have the same members in the same order. The parser never produces
/// duplicate keys; code building objects by hand should not either (the subscript setter keeps keys unique).
public struct JSONObject: Sendable, Hashable {
    /// The members in wire order.
    public var members: [(key: String, value: JSONValue)]

    /// An object with the given members, in that order.
    public init(_ members: [(key: String, value: JSONValue)] = []) {
        self.members = members
    }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The keys in wire order.
    public var keys: [String] { members.map(\.key) }

    /// The value of the member named `key`, or `nil` if there is none.
    ///
    /// Setting a value replaces the member in place (keeping its position) or appends a new member;
    /// setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in members where member.key == key {
                return member.value
            }
            return nil
        }
        set {
            let index = members.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): members[index].value = value
            case (let index?, nil): members.remove(at: index)
            case (nil, let value?): members.append((key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object with the literal's members in source order, so `["type": "hello"]` reads like the wire.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }
}
