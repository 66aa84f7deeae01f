import Foundation

/// A ContentState synthesized `Codable` decodes, whose enums decode themselves, the way teams
/// make an enum take a value a later server sends: `Enum(rawValue: …) ?? .case` in the enum's
/// own `init(from:)` (in one line, in three, in an extension). Such an enum has a `fallback`, so
/// the version is not a strict client, and the optional properties refuse a value of another
/// type as `decodeIfPresent` does, in the attributes too.
struct CourierAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        enum Status: String, Codable, Hashable {
            case assigned, pickedUp = "picked_up", arriving, unknown
            init(from decoder: Decoder) throws {
                self = try Status(rawValue: decoder.singleValueContainer().decode(String.self)) ?? .unknown
            }
        }
        enum Vehicle: Int, Codable, Hashable {
            case bike = 1, car, van
        }
        struct Stop: Codable, Hashable {
            enum Kind: String, Codable, Hashable {
                case pickup, dropoff, other
                init(from decoder: Decoder) throws {
                    let container = try decoder.singleValueContainer()
                    let raw = try container.decode(String.self)
                    self = Kind(rawValue: raw) ?? .other
                }
            }
            var kind: Kind
            var eta: Date?
        }

        var status: Status
        var vehicle: Vehicle?
        var lastStop: Stop
        var size: Size?
        var note: String?
        var history: [Status]
    }
    var orderID: String
    var placedAt: Date?
    var store: Store

    struct Store: Codable, Hashable {
        var name: String
        var tipCap: Int8?
    }
}

enum Size: Int, Codable, Hashable {
    case small = 1, large = 3
}

extension Size {
    init(from decoder: any Decoder) throws {
        self = .init(rawValue: try decoder.singleValueContainer().decode(Int.self)) ?? Self.small
    }
}
