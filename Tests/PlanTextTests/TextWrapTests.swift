import PlanText
import Testing

/// `TextWrap`: the planner's text fitted to a terminal. Lines are broken between words
/// only; continuation lines hang under the sentence of a step and under the last column
/// of a table row; colour codes take no width and a badge is never split.
@Suite("TextWrap: wrapping the planner's text to a width")
struct TextWrapTests {
    static let step = "  2. 08:38  Take tram 8 towards Kapuściska at 08:38 from Dworzec Główny, 6 stops, get off at Rondo Jagiellonów (08:46)"
    static let row = "  1  08:37  08:46   9 min   0        80 m   tram   arrives first, fastest, least walking, leaves first"

    /// Every line of `text` at most `width` columns, unless it is one word after its indent.
    static func fits(_ text: String, _ width: Int) -> Bool {
        text.split(separator: "\n").allSatisfy { line in
            TextWrap.columns(String(line)) <= width || line.split(separator: " ").count == 1
        }
    }

    @Test("a step continues under its sentence, not under its number or time")
    func stepHangs() {
        let wrapped = TextWrap.wrap(Self.step, width: 60)
        #expect(wrapped == """
              2. 08:38  Take tram 8 towards Kapuściska at 08:38 from
                        Dworzec Główny, 6 stops, get off at Rondo
                        Jagiellonów (08:46)
            """)
        #expect(Self.fits(wrapped, 60))
    }

    @Test("a table row continues under its last column")
    func rowHangs() {
        let wrapped = TextWrap.wrap(Self.row, width: 80)
        let lines = wrapped.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0] == "  1  08:37  08:46   9 min   0        80 m   tram   arrives first, fastest, least")
        let column = Self.row.distance(from: Self.row.startIndex, to: Self.row.range(of: "arrives")!.lowerBound)
        #expect(lines[1] == String(repeating: " ", count: column) + "walking, leaves first")
    }

    @Test("words are never broken, the words and their order are kept, lines that fit are untouched")
    func wordsKept() {
        let text = Self.step + "\n\n" + Self.row + "\nNote: 2026-11-22 is outside the timetable's dates (2020-04-16 to 2020-10-25): planning for Sunday 2020-10-25."
        for width in [20, 30, 40, 57, 80, 120] {
            let wrapped = TextWrap.wrap(text, width: width)
            #expect(wrapped.split(whereSeparator: \.isWhitespace) == text.split(whereSeparator: \.isWhitespace), "width \(width)")
            // The table's columns before the last are one piece, kept even when wider.
            #expect(Self.fits(wrapped, width) || width < 60, "width \(width):\n\(wrapped)")
        }
        #expect(TextWrap.wrap("short line\n  indented", width: 40) == "short line\n  indented")
        #expect(TextWrap.wrap(Self.step, width: 200) == Self.step)
    }

    @Test("colour codes take no width; a coloured badge is not split")
    func colour() {
        let badge = "\u{1B}[1;38;2;255;255;255;48;2;0;120;200m 8 \u{1B}[0m"
        let line = "  2. 08:38  Take tram \(badge) towards Kapuściska at 08:38 from Dworzec Główny"
        // Without the codes it is 73 columns: it fits in 73, not in 72.
        #expect(TextWrap.columns(line) == 73)
        #expect(TextWrap.wrap(line, width: 73) == line)
        #expect(TextWrap.wrap(line, width: 72) != line)
        let wrapped = TextWrap.wrap(line, width: 24)
        #expect(wrapped.contains(badge), "the badge was split:\n\(wrapped)")
        #expect(Self.fits(wrapped, 24))
    }
}
