@_spi(_Unicode) import Swift

/// Unicode canonical composition (NFC) and decomposition (NFD) without Foundation.
///
/// Why: Foundation's `precomposedStringWithCanonicalMapping` goes through ICU, which issue #27
/// takes out of the appliance. The Swift standard library carries its own normaliser (String
/// comparison is canonical equivalence), reachable through `_nfcCodeUnits` and the `_Unicode`
/// SPI that Swift's own Regex uses. Tests compare both against Foundation's on every name of a
/// real map (NormalizationTests), so a change in those underscored entry points is caught.
extension StringProtocol {
    /// Canonically composed: "u" + U+0308 becomes "ü".
    public var composed: String {
        if utf8.allSatisfy({ $0 < 0x80 }) { return String(self) }
        return String(decoding: String(self)._nfcCodeUnits, as: UTF8.self)
    }

    /// Canonically decomposed: "é" becomes "e" + U+0301.
    public var decomposed: String {
        if utf8.allSatisfy({ $0 < 0x80 }) { return String(self) }
        var out = String.UnicodeScalarView()
        for s in String(self)._nfd { out.append(s) }
        return String(out)
    }
}
