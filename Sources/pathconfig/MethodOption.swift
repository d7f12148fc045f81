import ArgumentParser
import PathConfiguration

/// `--method`, shared by the subcommands that look URLs up (resolve, explain).
struct MethodOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The HTTP method of the lookup, in any case: rules with \"methods\" apply only to the methods they list.",
        valueName: "method"))
    var method: String = HTTPMethod.defaultMethod

    func validate() throws {
        guard HTTPMethod.normalized(method) != nil else {
            throw ValidationError("--method must be an HTTP method token such as GET or POST, got '\(method)'")
        }
    }
}
