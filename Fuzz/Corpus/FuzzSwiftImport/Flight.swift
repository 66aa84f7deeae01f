import Foundation

/// Integer widths, a nested array of objects, a Double and a Bool.
struct FlightAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        struct Leg: Codable, Hashable {
            var from: String
            var gate: UInt8
        }
        var legs: [Leg]
        var delayed: Bool
        var progress: Double
        var seatsLeft: Int16
    }
    var flightNumber: String
}
