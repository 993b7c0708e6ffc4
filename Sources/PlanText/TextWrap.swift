/// The planner's text fitted to a terminal's width: lines longer than `width` columns are
/// broken between words (never inside one), and each continuation line is indented so
/// that it reads as part of what it continues:
///
/// - a numbered step (`  2. 08:38  Take tram 8 …`) continues under its sentence, not
///   under its number or time;
/// - a line of a table (its header or a row, `  1  08:37  08:46  …   tram   fastest, …`:
///   columns apart by two spaces or more) keeps its columns and continues under its
///   last column (what sets the option apart);
/// - a `Note: ` continues under its words, and so do a ride's `Alert: ` and a walk's
///   lettered turn (`a. Head …`);
/// - any other line continues at its own indent.
///
/// ANSI colour sequences (`ESC[…m`, the route badges) take no columns, and a coloured run
/// (a badge such as ` 8 `) is never broken. A line that fits is left exactly as it was.
public enum TextWrap {
    /// `text` with every line fitted to `width` columns (at least 20).
    /// Columns a terminal gives `text`: two for each wide (East Asian) character, one for
    /// the rest (escape sequences not counted apart: callers pad plain text).
    public static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { n, u in
            let v = u.value
            let wide = (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v)
            return n + (wide ? 2 : (u.properties.generalCategory == .nonspacingMark ? 0 : 1))
        }
    }

    public static func wrap(_ text: String, width: Int) -> String {
        let width = max(20, width)
        var out: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            out.append(contentsOf: wrapLine(String(line), width: width))
        }
        return out.joined(separator: "\n")
    }

    /// One line as one or more lines of at most `width` columns (a word longer than a
    /// line stands alone on its line, whole).
    static func wrapLine(_ line: String, width: Int) -> [String] {
        guard columns(line) > width else { return [line] }
        let chars = Array(line)
        let hanging = hangingIndent(chars)
        // The first `lead` characters stay as they are (the number, the time, the table's
        // columns, even when they alone are wider than `width`); the rest is words, and
        // continuation lines start under them (leaving at least a third of
        // the line, or 24 columns, for the words).
        let lead = leadLength(chars, columns: hanging)
        let indent = min(hanging, max(width / 2, width - 24))
        let head = String(chars[..<lead])
        let words = breakableWords(Array(chars[lead...]))
        var lines: [String] = []
        var current = head, currentColumns = columns(head), hasWord = false
        let pad = String(repeating: " ", count: indent)
        for word in words {
            let w = columns(word)
            // The columns alone fill the line (a table on a narrow terminal): a last column
            // of several words starts on the next line (one word, a header's or "later",
            // stays where it lines up, past the width).
            if !hasWord && words.count > 1 && currentColumns + w > width && !head.allSatisfy({ $0 == " " }) && indent + w <= width {
                lines.append(String(head.reversed().drop { $0 == " " }.reversed()))
                current = pad + word; currentColumns = indent + w
                hasWord = true
                continue
            }
            if hasWord && currentColumns + 1 + w > width {
                lines.append(current)
                current = pad + word; currentColumns = indent + w
            } else {
                let gap = hasWord ? " " : ""
                current += gap + word; currentColumns += gap.count + w
            }
            hasWord = true
        }
        lines.append(current)
        return lines
    }

    /// Where continuation lines start, in columns: after the number and time of a step,
    /// after the last wide gap (two or more spaces) of a table row, else the line's own
    /// indent.
    static func hangingIndent(_ chars: [Character]) -> Int {
        let visible = Array(stripped(String(chars)))
        var i = 0
        while i < visible.count && visible[i] == " " { i += 1 }
        let ownIndent = i
        // "Note: …" continues under its words, and so does a ride's "Alert: …".
        if visible[i...].starts(with: "Note: ") { return i + 6 }
        if visible[i...].starts(with: "Alert: ") { return i + 7 }
        // A followed trip's event, "[11:00] Metro Yellow …", continues under its words.
        if visible.count > i + 8, visible[i] == "[", visible[i + 3] == ":", visible[i + 6] == "]", visible[i + 7] == " " { return i + 8 }
        // A walk's turn under its step ("a. Head north on …") continues under its words.
        var letters = i
        while letters < visible.count && letters - i < 3 && visible[letters].isASCII && visible[letters].isLowercase { letters += 1 }
        if letters > i && visible[letters...].starts(with: ". ") { return letters + 2 }
        var digits = i
        while digits < visible.count && visible[digits].isASCII && visible[digits].isNumber { digits += 1 }
        guard digits > i else { return tableIndent(visible) ?? ownIndent }
        if digits < visible.count && visible[digits] == "." {
            // A step: "N. " then, when there is one, the time and the gap after it.
            let afterNumber = digits + 2
            if let gap = firstWideGap(visible, from: afterNumber, within: 24) { return gap }
            return min(afterNumber, visible.count)
        }
        return tableIndent(visible) ?? ownIndent
    }

    /// A table's line (its header or a row: columns apart by wide gaps after the
    /// indent): the column of its last column, whose words alone may wrap; the columns
    /// before it are never re-spaced.
    static func tableIndent(_ visible: [Character]) -> Int? {
        var i = 0
        while i < visible.count && visible[i] == " " { i += 1 }
        guard let last = lastWideGap(Array(visible[i...])) else { return nil }
        return i + last
    }

    /// The column after the first run of two or more spaces at or after `from` (and
    /// before `from + within`).
    static func firstWideGap(_ v: [Character], from: Int, within: Int) -> Int? {
        var i = from
        while i + 1 < min(v.count, from + within) {
            if v[i] == " " && v[i + 1] == " " {
                var j = i
                while j < v.count && v[j] == " " { j += 1 }
                return j
            }
            i += 1
        }
        return nil
    }

    /// The column after the last run of two or more spaces.
    static func lastWideGap(_ v: [Character]) -> Int? {
        var found: Int?
        var i = 0
        while i + 1 < v.count {
            if v[i] == " " && v[i + 1] == " " {
                var j = i
                while j < v.count && v[j] == " " { j += 1 }
                if j < v.count { found = j }
                i = j
            } else {
                i += 1
            }
        }
        return found
    }

    /// How many characters of `chars` (escape sequences included) make `columns` visible
    /// columns.
    static func leadLength(_ chars: [Character], columns target: Int) -> Int {
        var i = 0, seen = 0
        while i < chars.count && seen < target {
            if let end = escapeEnd(chars, i) { i = end; continue }
            i += 1; seen += 1
        }
        // An escape sequence right at the boundary belongs with the word it colours.
        return i
    }

    /// The words of `chars`, split at spaces outside coloured runs (a badge's padding
    /// spaces stay inside the badge).
    static func breakableWords(_ chars: [Character]) -> [String] {
        var words: [String] = [], word = "", coloured = false
        var i = 0
        while i < chars.count {
            if let end = escapeEnd(chars, i) {
                let seq = String(chars[i..<end])
                word += seq
                coloured = !(seq == "\u{1B}[0m" || seq == "\u{1B}[m")
                i = end
                continue
            }
            if chars[i] == " " && !coloured {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                word.append(chars[i])
            }
            i += 1
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// The index after an ANSI escape sequence (`ESC[` … a letter) starting at `i`, nil
    /// when none starts there.
    static func escapeEnd(_ chars: [Character], _ i: Int) -> Int? {
        guard chars[i] == "\u{1B}", i + 1 < chars.count, chars[i + 1] == "[" else { return nil }
        var j = i + 2
        while j < chars.count && !(chars[j].isASCII && chars[j].isLetter) { j += 1 }
        return min(j + 1, chars.count)
    }

    /// `s` without its escape sequences: what takes columns.
    static func stripped(_ s: String) -> String {
        let chars = Array(s)
        var out = "", i = 0
        while i < chars.count {
            if let end = escapeEnd(chars, i) { i = end; continue }
            out.append(chars[i]); i += 1
        }
        return out
    }

    /// Columns `s` takes on a terminal: its characters, escape sequences not counted.
    public static func columns(_ s: String) -> Int { stripped(s).count }
}
