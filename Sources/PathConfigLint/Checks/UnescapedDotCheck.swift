import PathConfigCore

/// `unescaped-dot`: an unescaped `.` where a literal dot is clearly meant.
///
/// "Clearly" is narrow: the `.` stands outside a class, unquantified, and
/// is followed by a file extension that ends the pattern: two to five ASCII
/// letters or digits, at least one a letter, then `$` or the end of the
/// pattern (`/file.pdf$`, `.json$`, `/feed.rss`). `.` there matches any
/// character (`/filexpdf`); `\.` is the dot. Patterns `PatternSyntax` does
/// not read are left alone.
struct UnescapedDotCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        d.patterns.flatMap { rule, p, pattern in
            Self.literalDots(pattern).map { dot in
                let scalars = Array(pattern.unicodeScalars)
                var fixed = String.UnicodeScalarView(scalars[..<dot])
                fixed.append("\\")
                fixed.append(contentsOf: scalars[dot...])
                let fileExtension = String(String.UnicodeScalarView(scalars[(dot + 1)...].prefix(while: \.isASCIIAlphanumeric)))
                let message = "pattern \(p) \(JSONWriter.quoted(pattern)): the \".\" before \"\(fileExtension)\" matches any character, "
                    + "not only a dot; escape it: \(JSONWriter.quoted(String(fixed)))"
                return d.finding(.unescapedDot, message, at: d.location(ofPattern: p, inRule: rule, scalar: dot), rule: rule, pattern: p)
            }
        }
    }

    /// The scalar indices of the dots of `pattern` that clearly mean a literal dot.
    static func literalDots(_ pattern: String) -> [Int] {
        guard let syntax = try? PatternSyntax.readAlike(pattern) else { return [] }
        let nodes = syntax.nodes
        var dots: [Int] = []
        for (i, node) in nodes.enumerated() where node.kind == .dot {
            // The extension: ASCII letters and digits written as themselves.
            var j = i + 1
            var hasLetter = false
            while j < nodes.count, case .character(let c, .plain) = nodes[j].kind, let s = Unicode.Scalar(c), s.isASCIIAlphanumeric {
                if s.properties.isAlphabetic { hasLetter = true }
                j += 1
            }
            let length = j - i - 1
            guard (2...5).contains(length), hasLetter else { continue }
            if j == nodes.count || (nodes[j].kind == .dollar && j == nodes.count - 1) { dots.append(syntax.scalar(at: i)) }
        }
        return dots
    }
}

extension Unicode.Scalar {
    var isASCIIAlphanumeric: Bool { (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) }
}
