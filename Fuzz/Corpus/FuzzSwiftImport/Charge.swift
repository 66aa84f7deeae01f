import Foundation

/// A final class as ContentState; Int raw values with a negative one.
struct ChargeAttributes: ActivityAttributes {
    final class ContentState: Codable, Hashable, @unchecked Sendable {
        var percent: Int
        var mode: ChargeMode
        var minutesLeft: Double?

        static func == (lhs: ContentState, rhs: ContentState) -> Bool { lhs.percent == rhs.percent }
        func hash(into hasher: inout Hasher) { hasher.combine(percent) }
    }
    var vehicle: String
}

enum ChargeMode: Int, Codable, Hashable {
    case fault = -1
    case idle
    case charging
    case full = 10
}
