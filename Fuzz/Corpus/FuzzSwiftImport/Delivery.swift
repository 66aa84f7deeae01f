import Foundation

/// A custom `init(from:)` that reads each key by hand, the way teams make a `ContentState`
/// tolerant: `decodeIfPresent … ?? default`, `decodeIfPresent` alone, `(try? decode …) ?? default`,
/// `try?` alone, a renamed key, an enum case as a default, a number width. The import reads the
/// body, and the version it writes (not a strict client) must give this type's verdicts.
struct DeliveryAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        enum Stage: String, Codable, Hashable {
            case placed, cooking
            case onTheWay = "on-the-way"
        }

        var stage: Stage
        var minutesLeft: Int
        var note: String?
        var rating: Double
        var courier: String?
        var tags: [String]
        var priority: UInt8
        let kind = "delivery"

        enum CodingKeys: String, CodingKey {
            case stage, note, rating, courier, tags, priority
            case minutesLeft = "eta"
        }

        init(stage: Stage, minutesLeft: Int) {
            self.stage = stage
            self.minutesLeft = minutesLeft
            self.rating = 5
            self.tags = []
            self.priority = 1
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            stage = try container.decodeIfPresent(Stage.self, forKey: .stage) ?? .onTheWay
            self.minutesLeft = try container.decodeIfPresent(Int.self, forKey: .minutesLeft) ?? 0
            note = try container.decodeIfPresent(String.self, forKey: .note)
            rating = (try? container.decode(Double.self, forKey: .rating)) ?? 4.5
            courier = try? container.decode(String.self, forKey: .courier)
            tags = try container.decode([String].self, forKey: .tags)
            priority = try container.decodeIfPresent(UInt8.self, forKey: .priority) ?? 1
        }
    }
    var restaurant: String
}
