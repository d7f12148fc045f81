@testable import PathConfiguration
import Testing

@Suite struct ZZProbe {
    @Test func probe() throws {
        for p in ["(?:a|)[:^digit:]+?\\W", "[:^digit:]+?\\W", "(?:a|)\\D+?\\W"] {
            print("T", p, "=>", try PatternTranslator.translate(p, dialect: .icu, caseInsensitive: false).pattern)
        }
    }
}
