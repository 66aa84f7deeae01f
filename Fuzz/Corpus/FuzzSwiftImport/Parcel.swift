import Foundation

/// Qualified type names, arrays of enums, an optional array, observers on a stored property.
struct ParcelAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var carrier: Swift.String
        var shippedAt: Foundation.Date
        var events: [ParcelEvent]
        var weights: Optional<[Int]>
        var attempts: Int = 0 {
            didSet { print(attempts) }
        }
        private(set) var signedBy: String?
    }
    var trackingNumber: String
}

enum ParcelEvent: String, Codable, Hashable {
    case labelCreated = "label_created"
    case inTransit
    case delivered
}
