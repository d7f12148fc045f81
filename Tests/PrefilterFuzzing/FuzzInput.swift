import PathConfiguration
import PathConfigurationFoundation

/// One fuzz input: patterns and subjects decoded from bytes, for the
/// prefilter's differential comparison (`PrefilterDifferential`).
///
/// The first byte picks the form. Even: the rest drives a grammar (one
/// pattern and its subjects), so mutations stay close to the constructs it
/// knows: `PatternGrammar`'s hazards when bit 1 is clear, and
/// `PlainPatternGrammar`'s plain patterns (the ones `SmallPattern` decides
/// without the engine) when it is set; with bit 2 set, `PatternGrammar`'s
/// vocabulary and subjects hold characters above U+FFFF too, and with bit 3
/// those whose case closure is odd (`PatternGrammar.casedNonASCII`). Odd:
/// the rest is raw text, the pattern up to the first NUL byte and up to four
/// subjects after it, NUL-separated, so the fuzzer can also reach syntax
/// the grammar does not know.
public struct FuzzInput: Sendable {
    /// The pattern.
    public let pattern: String
    /// The strings to match it against.
    public let subjects: [String]
    /// Whether ICU, which has no match budget, may run it: no nested
    /// repetition (or few quantifiers, for raw text) and short subjects.
    public let isTame: Bool

    /// Decodes `bytes`; nil when empty.
    public init?(_ bytes: [UInt8]) {
        guard let form = bytes.first else { return nil }
        let tamePattern: Bool
        if form & 1 == 0 {
            var choices = ByteChoices(Array(bytes.dropFirst()))
            let grammar = PatternGrammar(wide: form & 4 != 0, cased: form & 8 != 0)
            let node = form & 2 == 0 ? grammar.pattern(&choices) : PlainPatternGrammar().pattern(&choices)
            pattern = node.text
            subjects = grammar.subjects(for: node, count: 4, &choices)
            tamePattern = node.isTame
        } else {
            let parts = bytes.dropFirst().split(separator: 0, maxSplits: 4, omittingEmptySubsequences: false)
            pattern = String(decoding: parts[0], as: UTF8.self)
            subjects = parts.count > 1 ? parts.dropFirst().map { String(decoding: $0, as: UTF8.self) } : [pattern]
            tamePattern = pattern.utf8.count(where: { "*+?{".utf8.contains($0) }) <= 3
        }
        isTame = tamePattern && subjects.allSatisfy { $0.utf8.count <= 24 }
    }

    /// The raw-text encoding of a pattern and its subjects (a seed for the fuzzer).
    public static func encode(pattern: String, subjects: [String]) -> [UInt8] {
        [1] + Array(pattern.utf8) + subjects.flatMap { [0] + Array($0.utf8) }
    }

    /// Compares the pattern with the prefilter on and off on every subject,
    /// under PCRE2 and, when tame, ICU.
    public func compare(tally: inout PrefilterDifferential.Tally) -> [PrefilterDifferential.Disagreement] {
        let engines: [any RegexEngine] = isTame ? [PCRE2Engine(), FoundationEngine()] : [PCRE2Engine()]
        return PrefilterDifferential(engines: engines).compare(patterns: [pattern], subjects: subjects, tally: &tally)
    }
}
