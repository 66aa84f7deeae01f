import Foundation

/// CodingKeys as a typealias to an enum elsewhere.
struct TimerAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        typealias CodingKeys = TimerKeys
        var label: String
        var endsAt: Date
        var paused: Bool?
    }
}

enum TimerKeys: String, CodingKey {
    case label = "title"
    case endsAt = "ends_at"
    case paused
}
