import Foundation

/// The grocery delivery's content-state as the app declares it: the fields of
/// `schemas/grocery.yaml` version 3, with synthesized `Codable`. The benchmark payload
/// (`grocery500.json`) sends every field, and `promoBanner` besides (version 2 apps still
/// read it), which every contender ignores.
public struct Grocery: Codable, Sendable, Hashable {
    /// The order's stage; raw values as in the schema.
    public enum Stage: String, Codable, Sendable, Hashable {
        case picking, packing
        case onTheWay = "on-the-way"
        case arrived
    }

    /// An item replaced because it was out of stock.
    public struct Substitution: Codable, Sendable, Hashable {
        /// The item ordered.
        public var original: String
        /// What is delivered instead; empty when it was left out.
        public var replacement: String
    }

    /// What is happening (deprecated in version 3, still sent).
    public var statusText: String
    /// Minutes until the promised delivery time.
    public var minutesLeft: Int
    /// Share of the order's journey done, from 0 to 1.
    public var progress: Double
    /// The rider's first name.
    public var riderName: String
    /// The order's stage.
    public var stage: Stage
    /// The promised delivery time (encoded as seconds since 2001-01-01).
    public var deliverBy: Date
    /// How many items are in the order.
    public var itemCount: Int
    /// Items replaced because they were out of stock.
    public var substitutions: [Substitution]
}

/// A whole APNs body around a `Grocery` content-state, as `JSONDecoder` reads it.
public struct GroceryPush: Decodable, Sendable, Hashable {
    /// The `aps` dictionary.
    public struct APS: Decodable, Sendable, Hashable {
        /// UNIX seconds.
        public var timestamp: Int
        /// `start`, `update` or `end`.
        public var event: String
        /// The content-state.
        public var contentState: Grocery

        enum CodingKeys: String, CodingKey {
            case timestamp, event
            case contentState = "content-state"
        }
    }

    /// The `aps` dictionary.
    public var aps: APS
}
