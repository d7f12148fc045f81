import ArgumentParser
import PathConfiguration

/// One URL or path a command looks up, with where it came from, so that a
/// message about it can name it.
struct Input {
    /// The URL or path (a line of standard input without its line ending).
    let text: String
    /// Where it came from: `<stdin>:LINE` for a line of standard input,
    /// `input N` for the Nth URL or path on the command line (both 1-based).
    let place: String
}

/// The inputs of the commands that look URLs up (resolve, explain, diff),
/// and what they print for one the library refuses.
///
/// A refused input never costs the others their answers: each command goes
/// on with the next one, reports the refusal on standard error at the
/// input's place (`Diagnostics.refused`), and exits 1 at the end.
enum Inputs {
    /// Calls `body` with each of `arguments`, or, when there are none, with
    /// each line of standard input as it is read (`StandardInputLines`),
    /// calling `beforeWaiting` before a read that may wait for more.
    static func each(_ arguments: [String], beforeWaiting: () -> Void = {}, _ body: (Input) throws -> Void) rethrows {
        if arguments.isEmpty {
            var lines = StandardInputLines()
            while let text = lines.next(beforeWaiting: beforeWaiting) {
                try body(Input(text: text, place: "<stdin>:\(lines.count)"))
            }
        } else {
            for (i, text) in arguments.enumerated() { try body(Input(text: text, place: "input \(i + 1)")) }
        }
    }

    /// `text` as a message shows it: whole up to 80 characters, else its
    /// first 56 and last 23 around `…` (an input refused for its length can
    /// be 64 KB; its end often tells it apart, as its start does).
    static func shortened(_ text: String) -> String {
        guard text.count > 80 else { return text }
        return text.prefix(56) + "…" + text.suffix(23)
    }

    /// Prints `answer` of each input as a line on standard output, or, for
    /// one the library refuses, `null` (valid JSON, and never an answer,
    /// which is always an object that any key could be), reporting the refusal on
    /// standard error after the lines before it; exits 1 at the end when it
    /// refused any.
    static func printAnswers(_ arguments: [String], _ answer: (Input) throws(ResolveError) -> String) throws {
        var out = Output()
        var refused = false
        each(arguments, beforeWaiting: { out.flush() }) { input in
            do throws(ResolveError) {
                out.line(try answer(input))
            } catch {
                refused = true
                out.line("null")
                out.flush()  // the lines before it come first, on a terminal too
                Diagnostics.refused(input, error)
            }
        }
        out.flush()
        if refused { throw ExitCode(1) }
    }
}
