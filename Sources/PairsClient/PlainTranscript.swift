import PairsRules
import PairsWire

/// What `pairs play` prints when its output is not a terminal: one line per thing that happened, no
/// escapes, no redrawing, so a script can read it line by line (`pairs play --watch kitchen | grep pair`).
///
/// When the turn comes to the player (to a spectator: at every turn, and on arriving), and when every card
/// is shown for a peek, a board line follows:
/// face-down cards as bare numbers, face-up ones as `N=[face]` and matched ones as `N=face¹` or `N=face²`,
/// for example `board: 0 1 2=cat¹ 3 4=cat¹ 5`.
public enum PlainTranscript {
    /// The printed lines for `lines`, which `model` has just taken in.
    public static func render(_ lines: [TranscriptLine], model: PlayModel) -> [String] {
        var printed: [String] = []
        for line in lines {
            if line.kind == .board {
                if let state = model.state { printed.append(board(state)) }
                continue
            }
            printed.append(line.description)
            // A player needs the board when it is their turn; a spectator, at every turn.
            if line.kind == .turn, model.isMyTurn || model.isWatching, let state = model.state {
                printed.append(board(state))
            }
        }
        return printed
    }

    /// The board on one line.
    public static func board(_ state: WireState) -> String {
        let cells = state.cards.enumerated().map { index, card in
            switch card {
            case .down: "\(index)"
            case .up(let face): "\(index)=[\(face)]"
            case .matched(let face, let seat): "\(index)=\(face)\(TextStyle.mark(of: seat))"
            }
        }
        return "board: " + cells.joined(separator: " ")
    }
}
