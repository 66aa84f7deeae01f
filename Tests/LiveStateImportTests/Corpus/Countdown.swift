import Foundation

/// A home-automation countdown's shape: snake_case `CodingKeys`, and an `init(from:)` of its own
/// that turns a number of UNIX seconds into a `Date` behind an `if let`: the import reads the key
/// as the `Double` it is on the wire (not a `date`, whose seconds count from 2001) and reviews
/// what the app makes of it.
struct CountdownAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var message: String
        var endsAt: Date?
        var progress: Double?

        enum CodingKeys: String, CodingKey {
            case message
            case endsAt = "ends_at"
            case progress
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            message = try container.decode(String.self, forKey: .message)
            if let seconds = try container.decodeIfPresent(Double.self, forKey: .endsAt) {
                endsAt = Date(timeIntervalSince1970: seconds)
            } else {
                endsAt = nil
            }
            progress = try container.decodeIfPresent(Double.self, forKey: .progress)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(message, forKey: .message)
            try container.encodeIfPresent(endsAt.map(\.timeIntervalSince1970), forKey: .endsAt)
            try container.encodeIfPresent(progress, forKey: .progress)
        }
    }

    var webhookID: String

    enum CodingKeys: String, CodingKey {
        case webhookID = "webhook_id"
    }
}
