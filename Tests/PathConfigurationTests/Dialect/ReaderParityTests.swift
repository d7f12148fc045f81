@testable import PathConfigCore
import Testing

/// The two readers of a pattern, side by side: `PatternSyntax` (the
/// dialect-neutral reading that the automaton, the prefilter, port and lint
/// walk) and `PatternTranslator` (each dialect's exact reading, which the
/// engine runs). Where the neutral reading reads a pattern, both dialects
/// must start constructs where it starts nodes: a node that covers the
/// start of a dialect's construct, or starts inside one, is a construct the
/// neutral reading misreads for that dialect.
///
/// Case-sensitive translations only: a case-insensitive Java run of
/// characters is written out as one, traced to where it starts, so its
/// later characters' nodes are traced to nothing, though both readers take
/// each as a character.
@Suite("PatternSyntax against each dialect's translation: where constructs start")
struct ReaderParityTests {
    /// Pieces whose length differs between readers when misread: escapes by
    /// code with too few or too many digits, back references and octal
    /// escapes, braces, class edges and operators, group openers, flags,
    /// comments, and the characters free-spacing mode skips.
    static let pieces = ["a", "k", "4", "b", "/", "-", "&", ":", " ", "#", "}", "{", "{2}", "{2,}", "{1,3}", "{,2}",
                         #"\x4"#, #"\x41"#, #"\x4z"#, #"\x{41}"#, #"\x{}"#, #"\u00E9"#, #"\u00E"#, #"\U0001F600"#, #"\0"#, #"\01"#,
                         #"\012"#, #"\1"#, #"\12"#, #"\c"#, #"\cA"#, #"\p{L}"#, #"\pL"#, #"\N{LATIN SMALL LETTER A}"#, #"\k<n>"#,
                         #"\Q"#, #"\E"#, #"\."#, #"\-"#, #"\d"#, #"\b"#, #"\y"#, "[", "]", "[^", "[]", "[a-z]", "[[a]]", "[a&&b]",
                         "[a--b]", "[:alpha:]", "[\\]]", "(", ")", "(?:", "(?<n>", "(?#c)", "(?i)", "(?x)", "(?-i:", "(?=", "(?<=",
                         "|", "*", "+", "?", "*?", "++", ".", "^", "$"]

    /// 20,000 patterns of one to six pieces.
    static let patterns: [String] = {
        var generator = SplitMix(state: 47)
        return (0..<20_000).map { _ in
            (0..<Int.random(in: 1...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
    }()

    @Test("where the neutral reading reads a pattern, each dialect's translation traces every construct to a node's start, and each node to one",
          arguments: RegexDialect.allCases)
    func constructsStartAtNodes(_ dialect: RegexDialect) {
        var compared = 0
        var differences: [String] = []
        for pattern in Self.patterns {
            guard let syntax = try? PatternSyntax.read(pattern),
                  let translation = try? PatternTranslator.translate(pattern, dialect: dialect, caseInsensitive: false) else { continue }
            compared += 1
            let starts = Set(syntax.nodes.map { syntax.scalarOffset(Int($0.start)) })
            let traced = Set(translation.sourceOffsets.dropLast())
            // A construct may start inside an escape the neutral reading
            // takes as opaque, `.other`: `\12` is one node there (the engines
            // read different numbers of digits) and `\1` and `2` before one
            // group in both dialects. Its readers know nothing of what it
            // covers, so it hides nothing they rely on.
            let opaque = syntax.nodes.filter {
                if case .escape(.other) = $0.kind { return true }
                return false
            }.map { syntax.scalarOffset(Int($0.start)) ..< syntax.scalarOffset(Int($0.end)) }
            let unread = traced.subtracting(starts).filter { offset in !opaque.contains { $0.contains(offset) } }
            // A node the translation writes nothing for: a comment, flags,
            // or a copy in a run of one character (written as a count).
            let silent = Set(syntax.nodes.indices.filter { k in
                switch syntax.nodes[k].kind {
                case .comment, .flags: return true
                case .character: return k > 0 && syntax.nodes[k - 1].kind == syntax.nodes[k].kind
                default: return false
                }
            }.map { syntax.scalarOffset(Int(syntax.nodes[$0].start)) })
            let untraced = starts.subtracting(traced).subtracting(silent)
            if !unread.isEmpty || !untraced.isEmpty, differences.count < 20 {
                differences.append("\(pattern): translation at \(unread.sorted()) where no node starts; nodes at \(untraced.sorted()) it never traces")
            }
        }
        #expect(compared > 1_000, "too few patterns both read (\(compared)) to compare")
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }
}
