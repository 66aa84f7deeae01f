import Foundation

/// ContentState as a typealias to a type elsewhere; nested optional struct; implicit raw values.
struct OrderAttributes: ActivityAttributes {
    typealias ContentState = OrderState
    var orderNumber: String
}

struct OrderState: Codable, Hashable {
    var status: OrderStatus
    var courier: OrderCourier?
    var window: ClosedRange<Date>
    var updatedAt: Date
    var items: [String]
}

enum OrderStatus: Int, Codable, Hashable {
    case placed, cooking = 5, onTheWay, delivered
}

struct OrderCourier: Codable, Hashable {
    var name: String
    var rating: Double
}
