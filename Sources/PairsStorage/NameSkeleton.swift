/// What a name looks like, reduced so that names a reader cannot tell apart reduce to the same string:
/// claims are unique under it, so nobody can claim `Ann`, `ａｎｎ` or Cyrillic `аnn` once `ann` is taken.
///
/// An approximation of Unicode TR39's skeleton, made from what the standard library knows (no ICU):
/// 1. Combining marks and invisible characters are dropped (`ann̶` is `ann`).
/// 2. A Latin letter in any form (with a diacritic, fullwidth, mathematical, circled, small capital) is its
///    base letter, by its Unicode name: `é`, `ａ`, `𝐚` and `ᴀ` are `a`; a digit in any form is its digit.
/// 3. The common look-alikes from other scripts are the Latin letters they mimic (`lookalikes`: Cyrillic,
///    Greek and Armenian letters such as `а`, `о`, `ο`, `ո`).
/// 4. Capital `I` is `l` (they are one glyph in many fonts), then everything is lower-cased; `0` is `o`,
///    `1` and `|` are `l`, and `rn` is `m`, `vv` is `w`.
///
/// The stored skeletons (the `names.skeleton` column) are made by this function: a change to it must come
/// with a migration that recomputes them.
public enum NameSkeleton {
    /// The skeleton of `name`.
    public static func of(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            if scalar.isASCII {
                scalars.append(scalar)
                continue
            }
            let properties = scalar.properties
            if isInvisible(properties) { continue }
            if let mapped = lookalikes[scalar.value] ?? latinBase(of: properties) {
                scalars.append(contentsOf: mapped.unicodeScalars)
            } else {
                scalars.append(scalar)
            }
        }
        var folded = ""
        for scalar in scalars {
            if scalar == "I" { folded.unicodeScalars.append("l"); continue }
            folded += scalar.properties.lowercaseMapping
        }
        var result = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars {
            switch scalar {
            case "0": result.append("o")
            case "1", "|": result.append("l")
            case "n" where result.last == "r":
                result.removeLast()
                result.append("m")
            case "v" where result.last == "v":
                result.removeLast()
                result.append("w")
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// Marks (which draw on the letter before them) and characters that draw nothing.
    private static func isInvisible(_ properties: Unicode.Scalar.Properties) -> Bool {
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format, .control: return true
        default: return properties.isDefaultIgnorableCodePoint || properties.isVariationSelector
        }
    }

    /// The base letter (or digit) of a Latin letter or digit in another form, read from its Unicode name:
    /// `LATIN SMALL LETTER E WITH ACUTE`, `FULLWIDTH LATIN CAPITAL LETTER A`, `MATHEMATICAL BOLD SMALL A`,
    /// `CIRCLED LATIN SMALL LETTER A`, `LATIN LETTER SMALL CAPITAL A`, `FULLWIDTH DIGIT ONE`.
    private static func latinBase(of properties: Unicode.Scalar.Properties) -> String? {
        guard let name = properties.name else { return nil }
        let words = name.split(separator: " ")
        // The words before any "WITH ...": the letter itself.
        let letter = words.prefix { $0 != "WITH" }
        guard let last = letter.last else { return nil }
        if letter.dropLast().last == "DIGIT", let digit = digits[String(last)] { return digit }
        guard words.contains("LATIN") || words.first == "MATHEMATICAL" else { return nil }
        guard last.count == 1, let character = last.first, character.isASCII, character.isLetter else { return nil }
        return character.lowercased()
    }

    private static let digits = [
        "ZERO": "0", "ONE": "1", "TWO": "2", "THREE": "3", "FOUR": "4",
        "FIVE": "5", "SIX": "6", "SEVEN": "7", "EIGHT": "8", "NINE": "9",
    ]

    /// Letters of other scripts that look like Latin ones (after TR39's confusables list): the common ones
    /// in Cyrillic, Greek and Armenian, capitals and small letters, by code point.
    static let lookalikes: [UInt32: String] = [
        // Cyrillic small: а в е ѕ і ј к м н о р с т у х һ ԁ ԛ ԝ ь
        0x0430: "a", 0x0432: "b", 0x0435: "e", 0x0455: "s", 0x0456: "i", 0x0458: "j", 0x043A: "k",
        0x043C: "m", 0x043D: "h", 0x043E: "o", 0x0440: "p", 0x0441: "c", 0x0442: "t", 0x0443: "y",
        0x0445: "x", 0x04BB: "h", 0x0501: "d", 0x051B: "q", 0x051D: "w", 0x044C: "b", 0x0457: "i",
        // Cyrillic capital: А В Е Ѕ І Ј К М Н О Р С Т У Х Ԛ Ԝ
        0x0410: "a", 0x0412: "b", 0x0415: "e", 0x0405: "s", 0x0406: "l", 0x0408: "j", 0x041A: "k",
        0x041C: "m", 0x041D: "h", 0x041E: "o", 0x0420: "p", 0x0421: "c", 0x0422: "t", 0x0423: "y",
        0x0425: "x", 0x051A: "q", 0x051C: "w",
        // Greek small: α ι κ ν ο ρ τ υ χ
        0x03B1: "a", 0x03B9: "i", 0x03BA: "k", 0x03BD: "v", 0x03BF: "o", 0x03C1: "p", 0x03C4: "t",
        0x03C5: "u", 0x03C7: "x",
        // Greek capital: Α Β Ε Ζ Η Ι Κ Μ Ν Ο Ρ Τ Υ Χ
        0x0391: "a", 0x0392: "b", 0x0395: "e", 0x0396: "z", 0x0397: "h", 0x0399: "l", 0x039A: "k",
        0x039C: "m", 0x039D: "n", 0x039F: "o", 0x03A1: "p", 0x03A4: "t", 0x03A5: "y", 0x03A7: "x",
        // Armenian small: ա հ ո ս ց զ օ
        0x0561: "w", 0x0570: "h", 0x0578: "n", 0x057D: "u", 0x0581: "g", 0x0566: "q", 0x0585: "o",
        // Armenian capital: Օ Տ
        0x0555: "o", 0x054F: "s",
    ]
}
