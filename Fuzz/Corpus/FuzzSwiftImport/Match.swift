import Foundation

/// A nested optional struct with its own CodingKeys, an enum nested in the ContentState with
/// Int raw values counting on from explicit ones, and an array of structs with optionals.
struct MatchAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        enum Period: Int, Codable, Hashable {
            case warmUp = -1, first, second, extraTime = 10, penalties
        }

        struct Highlight: Codable, Hashable {
            var minute: Int
            var player: String?
            var ownGoal: Bool?
        }

        struct Clock: Codable, Hashable {
            var elapsed: Int
            var stoppage: Int?

            enum CodingKeys: String, CodingKey {
                case elapsed = "s"
                case stoppage = "added_s"
            }
        }

        var period: Period
        var clock: Clock?
        var highlights: [Highlight]
        var homeGoals: UInt
        var awayGoals: UInt
    }

    var homeTeam: String
    var awayTeam: String
}
