@testable import PathConfigCore
import Testing

/// The two readings of a pattern, side by side: `PatternSyntax` (the tree
/// that the automaton, the prefilter, port and lint walk) and
/// `PatternTranslator` (which writes the pattern for the engine), each in
/// one dialect. Both take their constructs from `PatternReader.token`; the
/// translator reads classes in the dialect's grammar, the tree their items.
/// Where the tree reads a pattern, the translation must start constructs
/// where it starts nodes: a node that covers the start of a translated
/// construct, or starts inside one, is a construct the tree misreads for
/// that dialect. And the tree must read every pattern the
/// translation takes (`unreadConstructs` names the one exception).
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

    /// What the tree refuses though the translation takes it: a group the
    /// translation leaves open, for PCRE2 to refuse.
    static let unreadConstructs = ["a group without its )"]

    @Test("where the tree reads a pattern, each dialect's translation traces every construct to a node's start, and each node to one",
          arguments: RegexDialect.allCases)
    func constructsStartAtNodes(_ dialect: RegexDialect) {
        var compared = 0
        var differences: [String] = []
        var refused: Set<String> = []
        for pattern in Self.patterns {
            guard let translation = try? PatternTranslator.translate(pattern, dialect: dialect, caseInsensitive: false) else { continue }
            let syntax: PatternSyntax
            do { syntax = try PatternSyntax.read(pattern, dialect: dialect) } catch {
                if !Self.unreadConstructs.contains(where: error.construct.hasPrefix) { refused.insert(error.construct) }
                continue
            }
            compared += 1
            let starts = Set(syntax.nodes.map { syntax.scalarOffset(Int($0.start)) })
            // `(*ANY)`, which a translation may start with, comes from no construct.
            let traced = Set(translation.sourceOffsets.dropFirst(translation.pattern.hasPrefix("(*ANY)") ? 6 : 0).dropLast())
            let unread = traced.subtracting(starts)
            // A node the translation writes nothing for: flags,
            // or a copy in a run of one character (written as a count).
            let silent = Set(syntax.nodes.indices.filter { k in
                switch syntax.nodes[k].kind {
                case .flags: return true
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
        #expect(refused.isEmpty, "the translation takes what the tree refuses: \(refused.sorted())")
    }
}
