import Foundation

/// Nested optional structs two deep, a Bool, a Float and UInt16.
struct WorkoutAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        struct Split: Codable, Hashable {
            struct Pace: Codable, Hashable {
                var secondsPerKm: Float
            }
            var km: UInt16
            var pace: Pace?
        }
        var current: Split?
        var paused: Bool
        var heartRate: Int8?
    }
    var kind: String
}
