import PairsWire

/// Keeping the seat's resume token in a file (`SavedSeats`) while it is held, so that a client killed
/// mid-game takes the seat back when the same command runs again.
extension PlayController {
    /// The saved seat of a `join` for `room` (nil: quick match) under this player's name; nil when no
    /// tokens are kept.
    func savedSeatKey(room: String?) -> SavedSeats.Key? {
        guard options.savedSeats != nil else { return nil }
        return SavedSeats.Key(endpoint: options.endpoint, room: room, name: options.name)
    }

    /// The seat saved for `key`, unless `--new` said to take a new one, or the client that saved it is
    /// still running (it is that client's seat, not one left behind).
    func usableSavedSeat(_ key: SavedSeats.Key) -> SavedSeats.Seat? {
        guard !options.ignoresSavedSeat, let saved = options.savedSeats?.seat(for: key) else { return nil }
        guard !SavedSeats.isRunning(saved.writer) else {
            show(notice: "the seat saved for this room is in use by another pairs play (pid \(saved.writer)); taking a new one")
            return nil
        }
        return saved
    }

    /// Saves every new token of the seat held (each works once, so a resume brings a new one) and forgets
    /// the seat once it is given up.
    func keepSeat(_ event: SessionEvent) {
        switch event {
        case .message(.joined(let joined)):
            guard let token = joined.token, joined.seat != nil, let key = requestedSeat, let seats = options.savedSeats else {
                return
            }
            heldSeat = key
            do {
                try seats.save(token, for: key)
            } catch {
                guard !hasReportedSaveFailure else { return }
                hasReportedSaveFailure = true
                show(notice: "cannot save the seat to take it back after a crash: \(error)")
            }
        case .message(.left), .seatLost:
            forgetHeldSeat()
        default:
            break
        }
    }

    /// Forgets the seat held: it was left, or lost.
    func forgetHeldSeat() {
        if let heldSeat { options.savedSeats?.forget(heldSeat) }
        heldSeat = nil
    }

    /// Says something that is neither an event nor an answer: in the notice, or as a line of plain output.
    private func show(notice: String) {
        model.show([notice], isError: false)
        showNotice()
    }
}
