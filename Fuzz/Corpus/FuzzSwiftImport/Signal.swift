import Foundation

/// Literals as the compiler reads them: escapes in raw values and CodingKeys, backticked names,
/// hexadecimal and underscored Int raw values.
struct SignalAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        enum Level: String, Codable, Hashable {
            case high = "h\u{69}gh"
            case low = "say \"low\""
            case `default`
        }

        enum Band: Int, Codable, Hashable {
            case wide = 0x10, narrow, tiny = 1_000
        }

        var `default`: Level
        var band: Band
        var `class`: String
        var `self_`: Int

        enum CodingKeys: String, CodingKey {
            case `default` = "def\u{61}ult"
            case band
            case `class`
            case `self_` = "self\t"
        }
    }
}
