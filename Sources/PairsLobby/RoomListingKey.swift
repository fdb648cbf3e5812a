import PairsWire

/// A room's place in the room list: rooms with a free seat first, then by name. The list is kept in this
/// order as rooms change (`RoomDirectory`), so a page is read from where the last one ended, never sorted.
struct RoomListingKey: Comparable {
    let hasFreeSeat: Bool
    let name: String

    init(hasFreeSeat: Bool, name: String) {
        self.hasFreeSeat = hasFreeSeat
        self.name = name
    }

    init(_ cursor: RoomListCursor) {
        self.init(hasFreeSeat: cursor.hasFreeSeat, name: cursor.room)
    }

    var cursor: RoomListCursor { RoomListCursor(hasFreeSeat: hasFreeSeat, room: name) }

    static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.hasFreeSeat != rhs.hasFreeSeat ? lhs.hasFreeSeat : lhs.name < rhs.name
    }
}
