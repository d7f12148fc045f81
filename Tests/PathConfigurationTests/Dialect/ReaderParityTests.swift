@testable import PathConfigCore
import Testing

/// The two readings of a pattern, side by side: `PatternSyntax` (the tree
/// that the automaton, the prefilter, port and lint walk) and
/// `PatternTranslator` (which writes the pattern for the engine), each in
/// one dialect. Both take their constructs from `PatternReader.token`, and
/// their classes from the dialect's class reader (a set for one, items for
/// the other).
/// Where the tree reads a pattern, the translation must start constructs
/// where it starts nodes: a node that covers the start of a translated
/// construct, or starts inside one, is a construct the tree misreads for
/// that dialect. And the tree must read every pattern the
/// translation takes (`unreadConstructs` names the one exception), and
/// every pattern it reads must round-trip: written back from its nodes, it
/// reads as the same tree and translates to the same PCRE2.
///
/// Construct starts are compared on case-sensitive translations only (the
/// round trip takes both): a case-insensitive Java run of
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

    /// The pattern the tree stands for, written back from its nodes: each
    /// character as `\x{H}` (so no two nodes run together, and quoted text
    /// and characters free-spacing mode would skip stay characters), every
    /// other node as it was written. What has no node (comments, free
    /// spacing, `\Q` and `\E`, Java's repeats of nothing) is left out.
    static func written(_ syntax: PatternSyntax) -> String {
        syntax.nodes.map { node in
            if case .character(let value, _) = node.kind { return "\\x{" + String(value, radix: 16) + "}" }
            return String(syntax.source(of: node))
        }.joined()
    }

    /// The tree with each character's spelling forgotten, and no positions.
    static func shape(_ syntax: PatternSyntax) -> [String] {
        syntax.nodes.map { node in
            if case .character(let value, _) = node.kind { return "character \(value)" }
            return "\(node.kind)"
        } + syntax.classes.map { "\($0)" }
    }

    @Test("every pattern the dialect takes round-trips through the tree: written back from its nodes, it reads as the same tree and translates to the same PCRE2",
          arguments: RegexDialect.allCases)
    func roundTrip(_ dialect: RegexDialect) {
        var compared = 0
        var differences: [String] = []
        for pattern in Self.patterns {
            // A tree of no nodes would be written as the empty pattern, which ICU refuses.
            guard let syntax = try? PatternSyntax.read(pattern, dialect: dialect), !syntax.nodes.isEmpty else { continue }
            let written = Self.written(syntax)
            guard let again = try? PatternSyntax.read(written, dialect: dialect) else {
                differences.append("\(pattern): written back as \(written), the tree refuses it")
                continue
            }
            if Self.shape(again) != Self.shape(syntax) {
                differences.append("\(pattern): written back as \(written), reads as another tree")
            }
            for caseInsensitive in [false, true] {
                compared += 1
                let before = Result { () throws(TranslationError) in try PatternTranslator.translate(pattern, dialect: dialect, caseInsensitive: caseInsensitive) }
                let after = Result { () throws(TranslationError) in try PatternTranslator.translate(written, dialect: dialect, caseInsensitive: caseInsensitive) }
                switch (before, after) {
                case (.success(let a), .success(let b)) where a.bytes == b.bytes: continue
                case (.failure(let a), .failure(let b)) where a.message == b.message: continue
                default: differences.append("\(pattern) (case-insensitive: \(caseInsensitive)): written back as \(written), translates otherwise")
                }
            }
        }
        #expect(compared > 10_000, "too few patterns the tree reads (\(compared)) to compare")
        #expect(differences.isEmpty, "\(differences.count) differ: \(differences.prefix(20).joined(separator: "\n"))")
    }
}
