import Foundation

/// A custom `init(from:)` that tolerates a missing key: the parse cannot see what it accepts, so
/// the import marks the type for review instead of guessing.
struct DeliveryAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var stage: String
        var minutesLeft: Int

        init(stage: String, minutesLeft: Int) {
            self.stage = stage
            self.minutesLeft = minutesLeft
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            stage = try container.decode(String.self, forKey: .stage)
            minutesLeft = try container.decodeIfPresent(Int.self, forKey: .minutesLeft) ?? 0
        }
    }
    var restaurant: String
}
