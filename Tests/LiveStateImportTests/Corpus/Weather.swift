import Foundation

/// Number widths and nested arrays: Float, Int64, UInt16, UInt64, arrays of arrays, an optional array,
/// a `lazy` property and a computed one (neither is a key).
struct WeatherAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var temperature: Float
        var pressure: Double
        var observedAt: Int64
        var windDegrees: UInt16
        var stationID: UInt64
        var hourly: [[Double]]
        var alerts: [String]?
        var raining: Bool
        lazy var summary: String = "\(temperature)"
        var isHot: Bool { temperature > 30 }
    }
    var city: String
}
