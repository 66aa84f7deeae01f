import Foundation

/// A ContentState typealias inside the attributes to a nested type of another type, and a
/// CodingKeys that leaves an optional out.
struct AuctionAttributes: ActivityAttributes {
    typealias ContentState = Lot.Status
    var lotID: String
}

enum Lot {
    struct Status: Codable, Hashable {
        var highestBid: Decimal
        var bidders: Int
        var endsAt: Date
        var cached: String?

        enum CodingKeys: String, CodingKey {
            case highestBid = "bid"
            case bidders
            case endsAt = "ends"
        }
    }
}
