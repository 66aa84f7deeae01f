import Foundation

/// The delivery card's content-state as an app declares it: the fields of schema version 3,
/// with synthesized `Codable`.
///
/// Every key that one of the benchmark payloads lacks (`etaText`, `delayMinutes`, `note`,
/// `badge`) is `Optional`, so that Foundation's `JSONDecoder` decodes all three payloads; the
/// unknown keys `extra` and `stops` are ignored. LiveState decodes into the same type, so both
/// sides build the same value.
public struct Delivery: Codable, Sendable, Hashable {
    /// Where the order is; raw values as in the schema.
    public enum Status: String, Codable, Sendable, Hashable {
        case pending, preparing, delivering, delivered, delayed
    }

    /// The courier bringing the order.
    public struct Courier: Codable, Sendable, Hashable {
        /// The courier's display name.
        public var name: String
        /// The courier's rating, from 0 to 5.
        public var rating: Double
    }

    /// Name of an image bundled with the app.
    public var logo: String
    /// The headline.
    public var title: String
    /// The second line.
    public var subtitle: String
    /// Share of the trip done, from 0 to 1.
    public var progress: Double
    /// Expected arrival (encoded as seconds since 2001-01-01).
    public var eta: Date
    /// Arrival time as the server formatted it.
    public var etaText: String?
    /// Where the order is.
    public var status: Status
    /// How late the order runs, in minutes.
    public var delayMinutes: Int?
    /// The courier.
    public var courier: Courier
    /// The items' display names.
    public var items: [String]
    /// The customer's delivery instructions.
    public var note: String?
    /// The loyalty badge.
    public var badge: String?
}

/// A whole APNs body around a `Delivery` content-state, as `JSONDecoder` reads it.
public struct DeliveryPush: Codable, Sendable, Hashable {
    /// The `aps` dictionary.
    public struct APS: Codable, Sendable, Hashable {
        /// UNIX seconds.
        public var timestamp: Int
        /// `start`, `update` or `end`.
        public var event: String
        /// The content-state.
        public var contentState: Delivery

        enum CodingKeys: String, CodingKey {
            case timestamp, event
            case contentState = "content-state"
        }
    }

    /// The `aps` dictionary.
    public var aps: APS
}
