/// The faces printed on cards: 32 three-letter animals, so every board of up to 32 pairs has distinct faces
/// and each one fits a terminal grid cell of the same width.
public enum Faces {
    /// Every face a board can use, in catalogue order. A board of P pairs uses the first P.
    public static let all: [String] = [
        "ant", "ape", "bat", "bee", "boa", "cat", "cod", "cow",
        "doe", "dog", "eel", "elk", "emu", "ewe", "fox", "gnu",
        "hen", "hog", "jay", "koi", "owl", "pig", "ram", "rat",
        "ray", "yak", "asp", "cub", "kid", "moa", "orc", "pug",
    ]
}
