/// `\N{NAME}`: the code point with a Unicode character name, from the names
/// the Swift runtime carries (the same list ICU and the JDK read; a name
/// newer than the app's Unicode version is known here and not there).
enum CharacterNames {
    /// The scalar named `name`, compared without regard to ASCII case
    /// (as ICU and `Character.codePointOf` do); nil when no scalar has it.
    static func scalar(named name: String) -> UInt32? {
        let wanted = name.uppercased()
        guard !wanted.isEmpty, wanted.utf8.count <= 128 else { return nil }
        return index[fingerprint(wanted)]?.first(where: { Unicode.Scalar($0)?.properties.name == wanted })
    }

    /// Every named scalar, by a fingerprint of its name: built once, on the
    /// first `\N{...}` (about 155,000 names), so that each lookup is a hash
    /// probe and a hostile pattern cannot make a load scan the table again.
    private static let index: [UInt64: [UInt32]] = {
        var map: [UInt64: [UInt32]] = [:]
        map.reserveCapacity(160_000)
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), let name = scalar.properties.name else { continue }
            map[fingerprint(name), default: []].append(value)
        }
        return map
    }()

    /// FNV-1a over the UTF-8 of `text`: stable within and across runs.
    private static func fingerprint(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
