/// A plain pattern's engine form, compiled on its first search.
///
/// A pattern `SmallPattern` reads is decided by the automaton on every
/// printable ASCII subject, which is nearly every URL: its engine form is
/// needed only for the rare other subject. Compiling it at load time would
/// cost as much as the rest of loading it (translation and PCRE2's compile),
/// so it is compiled on first use instead (`MadeOnce`).
///
/// Deferring cannot hide an error: every construct the reader accepts is
/// valid in ICU, Java and PCRE2 alike, which the tests check on every pattern
/// of the plain grammar under both dialects and both engines. Should a
/// compile fail all the same, the pattern counts as not matching that
/// subject, as a search that runs out of budget does.
final class DeferredPattern: CompiledPattern, @unchecked Sendable {
    private let pattern: String
    private let compiler: Compiler
    private let compiled = MadeOnce<Boxed<any CompiledPattern>>()

    /// What a load's deferred patterns compile with, shared by all of them
    /// (`RuleCompiler` makes one) rather than held in each.
    final class Compiler: Sendable {
        let engine: any RegexEngine
        let options: RegexOptions
        let limits: Limits

        init(engine: any RegexEngine, options: RegexOptions, limits: Limits) {
            self.engine = engine
            self.options = options
            self.limits = limits
        }
    }

    init(_ pattern: String, compiler: Compiler) {
        self.pattern = pattern
        self.compiler = compiler
    }

    /// Whether the engine form has been made (for tests).
    var isCompiled: Bool { compiled.current != nil }

    func search(_ subject: MatchSubject) -> MatchOutcome {
        if let made = compiled.current { return made.takeUnretainedValue().value.search(subject) }
        guard let fresh = try? compiler.engine.compile(pattern, options: compiler.options, limits: compiler.limits) else { return .noMatch }
        return compiled.publish(Boxed(fresh)).takeUnretainedValue().value.search(subject)
    }
}
