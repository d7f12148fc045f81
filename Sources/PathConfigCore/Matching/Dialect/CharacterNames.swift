/// `\N{NAME}`: the code point with a Unicode character name, from the names
/// the Swift runtime carries (the same list ICU and the JDK read; a name
/// newer than the app's Unicode version is known here and not there).
enum CharacterNames {
    /// The scalar named `name`, compared without regard to ASCII case
    /// (as ICU and `Character.codePointOf` do); nil when no scalar has it.
    static func scalar(named name: String) -> UInt32? {
        let wanted = name.uppercased()
        guard !wanted.isEmpty, wanted.utf8.count <= 128 else { return nil }
        return index[wanted.hashValue]?.first(where: { Unicode.Scalar($0)?.properties.name == wanted })
    }

    /// Every named scalar, by the hash of its name: built once, on the
    /// first `\N{...}` (about 155,000 names), so that each lookup is a hash
    /// probe and a hostile pattern cannot make a load scan the table again.
    private static let index: [Int: [UInt32]] = {
        var map: [Int: [UInt32]] = [:]
        map.reserveCapacity(160_000)
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), let name = scalar.properties.name else { continue }
            map[name.hashValue, default: []].append(value)
        }
        return map
    }()
}
