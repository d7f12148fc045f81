/// What a character of a pattern matches in OpenJDK 17's `java.util.regex`
/// under CASE_INSENSITIVE | UNICODE_CASE (Kotlin's `IGNORE_CASE`), as sets
/// of code points the translation writes out, so that PCRE2's own case
/// folding (another Unicode version, other rules) never decides.
///
/// From `java/util/regex/Pattern.java`, with `U` and `L` the JDK's simple
/// mappings (`JavaCaseMapping`) and `f(x) = L(U(x))`:
/// - a literal alone (`single`): when `U(c) != L(U(c))`, every `x` with
///   `x == L(U(c))` or `f(x) == L(U(c))` (`SingleU`), so `i` takes `I`, `ı`
///   and `İ`; otherwise `c` alone (`ß`);
/// - a literal in a run of two or more (`newSlice`, `SliceU`): every `x`
///   with `x == f(c)` or `f(x) == f(c)`, so `ß` there also takes `ẞ`;
/// - a character in a class (`bitsOrSingle`): below U+0100, other than
///   `I i S s K k Å å ÿ µ`, the character and its upper and lower case
///   (`BitClass.add`), else as a literal alone;
/// - a range (`CIRangeU`): every `x` with `x`, `U(x)` or `f(x)` in it, so
///   `[a-z]` takes the Kelvin sign (its `f` is `k`) and `[A-Z]` does not.
///
/// Properties and Java's ASCII classes (`\w`, `\p{Alpha}`) are not folded
/// further (`PropertyNames.java`). A back reference compares code points by
/// `f` (`CIBackRef`), which PCRE2's caseless back reference matches except
/// for the characters in `backReferenceMismatches`.
enum JavaCaseFolding {
    /// `Character.toUpperCase(int)`.
    static func upper(_ c: UInt32) -> UInt32 { map(c, JavaCaseMapping.upper) }
    /// `Character.toLowerCase(int)`.
    static func lower(_ c: UInt32) -> UInt32 { map(c, JavaCaseMapping.lower) }
    /// `Character.toLowerCase(Character.toUpperCase(c))`.
    static func folded(_ c: UInt32) -> UInt32 { lower(upper(c)) }

    private static func map(_ c: UInt32, _ runs: [JavaCaseMapping.Run]) -> UInt32 {
        let low = firstIndex(runs.count) { runs[$0].last >= c }
        guard low < runs.count else { return c }
        let run = runs[low]
        guard c >= run.first, (c - run.first) % run.step == 0 else { return c }
        return UInt32(Int64(c) + Int64(run.delta))
    }

    /// Every code point whose `U` or `L` is another (the only ones whose `U`
    /// or `f` can differ from themselves), in order.
    private static let mapped: [UInt32] = Set((JavaCaseMapping.upper + JavaCaseMapping.lower).flatMap {
        stride(from: $0.first, through: $0.last, by: Int($0.step))
    }).sorted()

    /// For each value of `f` other than the code point itself, the code
    /// points with that value.
    static let byFolded: [UInt32: [UInt32]] = Dictionary(grouping: mapped.filter { folded($0) != $0 }, by: folded)

    /// `v` and every `x` with `f(x) == v`.
    private static func foldingTo(_ v: UInt32) -> [UInt32] {
        ((byFolded[v] ?? []) + [v]).sorted()
    }

    /// What a literal matches alone (`Pattern.single`, then `SingleU`).
    static func single(_ c: UInt32) -> [UInt32] {
        isCased(c) ? foldingTo(lower(upper(c))) : [c]
    }

    /// Whether `Pattern.single` makes a `SingleU` of `c` case-insensitively
    /// (its upper case and that one's lower case differ), a predicate the
    /// JDK does not keep as BMP-only.
    static func isCased(_ c: UInt32) -> Bool {
        let u = upper(c)
        return u != lower(u)
    }

    /// What a literal matches in a run of literals (`newSlice`, `SliceU`).
    static func inSlice(_ c: UInt32) -> [UInt32] { foldingTo(folded(c)) }

    /// What a character of a class matches (`Pattern.bitsOrSingle`).
    static func inClass(_ c: UInt32) -> [UInt32] {
        guard isBitClassCharacter(c) else { return single(c) }
        // BitClass.add: ASCII letters by ASCII rules, the rest of Latin-1 by the JDK's.
        let others = c < 0x80 ? [c >= 0x61 && c <= 0x7A ? c - 0x20 : c, c >= 0x41 && c <= 0x5A ? c + 0x20 : c] : [lower(c), upper(c)]
        return Array(Set([c] + others)).sorted()
    }

    /// Whether a class character goes into the class's bit set
    /// (`bitsOrSingle`, case-insensitively): below U+0100, but for
    /// `I i S s K k Å å ÿ µ`, which fold beyond it.
    static func isBitClassCharacter(_ c: UInt32) -> Bool {
        c < 0x100 && ![0xFF, 0xB5, 0x49, 0x69, 0x53, 0x73, 0x4B, 0x6B, 0xC5, 0xE5].contains(c)
    }

    /// What a class range `low-high` matches (`CIRangeU`): the range, and
    /// the code points whose `U` or `f` is in it, found by a search of
    /// `sortedByUpper` and `sortedByFolded` (a pattern of 16 KB may hold 3,200 ranges).
    static func range(_ low: UInt32, _ high: UInt32) -> [ClosedRange<UInt32>] {
        var extra: [UInt32] = []
        for table in [sortedByUpper, sortedByFolded] {
            var k = firstIndex(table.count) { table[$0].key >= low }
            while k < table.count, table[k].key <= high {
                if !(low...high).contains(table[k].x) { extra.append(table[k].x) }
                k += 1
            }
        }
        return ranges(of: extra, adding: low...high)
    }

    /// Every `x` of `mapped` by `U(x)`, and by `f(x)`, in order of that key.
    private static let sortedByUpper: [(key: UInt32, x: UInt32)] = mapped.map { (key: upper($0), x: $0) }.sorted { $0.key < $1.key }
    private static let sortedByFolded: [(key: UInt32, x: UInt32)] = mapped.map { (key: folded($0), x: $0) }.sorted { $0.key < $1.key }

    /// The first index below `count` where `reached` holds, by bisection
    /// (`reached` false before some index and true from it on), or `count`.
    static func firstIndex(_ count: Int, where reached: (Int) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if reached(mid) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// `values` (in any order, repeats allowed) as the fewest ranges, with
    /// `extra` merged in.
    static func ranges(of values: [UInt32], adding extra: ClosedRange<UInt32>? = nil) -> [ClosedRange<UInt32>] {
        var all = values.map { $0...$0 }
        if let extra { all.append(extra) }
        all.sort { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        for r in all {
            if let last = merged.last, r.lowerBound <= last.upperBound &+ 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        return merged
    }

    /// The code points whose case-insensitive back references PCRE2 10.42
    /// compares otherwise than the JDK: `I`, `i`, `İ` and `ı`, all one
    /// under `f` but apart in Unicode's case folding; the case pairs Unicode
    /// 14.0 added, which PCRE2 folds and Java 17 (Unicode 13.0) does not;
    /// and every supplementary code point, on which `CIBackRef` steps by
    /// UTF-16 units and code points at once. Measured by comparing each
    /// cased code point's class under both (JavaCaseDifferentialTests).
    static func isBackReferenceMismatch(_ c: UInt32) -> Bool {
        c >= 0x10000 || backReferenceMismatches.contains(c)
    }

    /// The code points of the BMP that `isBackReferenceMismatch` takes.
    static let backReferenceMismatches: Set<UInt32> = [
        0x49, 0x69, 0x130, 0x131, 0x2C2F, 0x2C5F, 0xA7C0, 0xA7C1, 0xA7D0, 0xA7D1, 0xA7D6, 0xA7D7, 0xA7D8, 0xA7D9,
    ]
}
