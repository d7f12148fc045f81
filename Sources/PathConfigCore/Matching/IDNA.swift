import CIDN2

/// Host names that hold characters beyond ASCII, converted to ASCII as
/// Foundation's `URL(string:)` converts them (`bücher.de` becomes
/// `xn--bcher-kva.de`), through libidn2.
///
/// Foundation (swift-foundation's `UIDNAHookICU`, iOS 17 and later, and
/// Linux) calls ICU's `uidna_nameToASCII` with UTS #46 nontransitional
/// processing, CheckBidi and CheckJoiners, without STD3 rules, and accepts
/// no error at all; `URL(string:)` is nil when the conversion fails or its
/// result is not a valid RFC 3986 host (`URLParts.foundationHost` checks
/// that). Here:
///
/// - `idn2_lookup_u8` with `IDN2_NONTRANSITIONAL` (UTS #46 mapping, `ß`
///   kept; STD3 rules off, libidn2's default since 2.0.3) and
///   `IDN2_NO_ALABEL_ROUNDTRIP`, so that a label keeping an ASCII character
///   outside letters, digits and `-` is encoded as ICU encodes it (`ü%41`
///   as `xn--%41-goa`) and left to the host check;
/// - where libidn2 refuses a character that IDNA2008 disallows but UTS #46
///   allows (`IDN2_DISALLOWED`: symbols and emoji, `☃`, `❤`) and the name
///   holds none of UTS #46's four deviation characters (`ß`, `ς`, ZWJ,
///   ZWNJ), transitional processing, which then maps exactly as
///   nontransitional processing does but applies UTS #46's validity alone;
/// - then ICU's limits, which libidn2 does not apply the same way: at most
///   2,048 bytes in, no empty label but a final one, labels of at most 63
///   bytes, at most 253 bytes out (254 with a final dot).
///
/// Known differences (docs/request-rules.md): Foundation applies the Bidi
/// rule (RFC 5893) to every label of a name that holds right-to-left text
/// (`1.שלום` fails there), libidn2 only to the labels that hold it;
/// libidn2's tables are Unicode 14's, so characters assigned since, and
/// `ẞ` (mapped to `ß` since Unicode 15.1, to `ss` before), convert
/// differently; a name holding both a deviation character and a symbol
/// IDNA2008 disallows is refused here.
///
/// Only the siesta profile's whole-URL strings, globs and rules from code
/// (`Lookup.url`) reach this, and only for a host with a byte above 0x7F:
/// an ASCII host is never converted (Foundation keeps it as written).
enum IDNA {
    /// `host` (UTF-8 holding at least one byte above 0x7F) in ASCII, or nil
    /// where Foundation's conversion fails.
    static func toASCII(_ host: Substring) -> String? {
        // ICU's input limit in Foundation, and a NUL libidn2 would read as the end.
        guard host.utf8.count <= 2048, !host.utf8.contains(0) else { return nil }
        let holdsDeviation = host.unicodeScalars.contains { deviations.contains($0.value) }
        var input = Array(host.utf8)
        input.append(0)  // libidn2 needs a terminator
        var ascii = lookup(input, flags: Int32(IDN2_NONTRANSITIONAL.rawValue))
        if ascii.status == Int32(IDN2_DISALLOWED.rawValue), !holdsDeviation {
            ascii = lookup(input, flags: Int32(IDN2_TRANSITIONAL.rawValue))
        }
        guard ascii.status == Int32(IDN2_OK.rawValue), let name = ascii.name, withinICULimits(name) else { return nil }
        return name
    }

    /// UTS #46's deviation characters: `ß`, `ς`, ZWNJ and ZWJ, which
    /// transitional processing maps away.
    private static let deviations: Set<UInt32> = [0xDF, 0x3C2, 0x200C, 0x200D]

    /// `idn2_lookup_u8` of the NUL-terminated `input` with `flags` (and
    /// `IDN2_NO_ALABEL_ROUNDTRIP`): its status, and the name when it is OK.
    private static func lookup(_ input: [UInt8], flags: Int32) -> (status: Int32, name: String?) {
        var out: UnsafeMutablePointer<UInt8>?
        let status = idn2_lookup_u8(input, &out, flags | Int32(IDN2_NO_ALABEL_ROUNDTRIP.rawValue))
        defer { idn2_free(out) }
        guard status == Int32(IDN2_OK.rawValue), let out else { return (status, nil) }
        return (status, String(cString: out))
    }

    /// ICU's errors libidn2 leaves out: an empty label other than the last,
    /// a label over 63 bytes, a name over 253 bytes (254 ending in `.`), an
    /// empty name.
    private static func withinICULimits(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 || (bytes.count == 254 && bytes.last == UInt8(ascii: ".")) else { return false }
        // An empty label is allowed only at the end (after a final dot).
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return labels.allSatisfy { $0.count <= 63 } && !labels.dropLast().contains { $0.isEmpty }
    }
}
