extension BinaryInteger {
    /// The value of an ASCII hex digit (`0`-`9`, `A`-`F`, `a`-`f`), or nil:
    /// for JSON's `\u`, a URL's `%XX` (as Foundation and `java.net.URI` read
    /// them) and a pattern's `\x` and `\u`, over bytes, UTF-16 units or scalars.
    @inline(__always)
    var hexDigitValue: Self? {
        switch self {
        case 0x30...0x39: return self - 0x30
        case 0x41...0x46: return self - 0x41 + 10
        case 0x61...0x66: return self - 0x61 + 10
        default: return nil
        }
    }
}
