import Foundation

/// Renamed keys, a key left out of CodingKeys, `var` with an initial value, a `let` with one.
struct RideAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var driverName: String
        var etaMinutes: Int = 4
        let kind = "ride"
        var plate: String?
        var internalNote: String? = nil

        enum CodingKeys: String, CodingKey {
            case driverName = "driver_name"
            case etaMinutes = "eta"
            case kind
            case plate
        }
    }

    var rideID: String
}
