import Foundation

/// A synthesized `ContentState` of many leaf types, optional and not: number widths, `Float`,
/// `Decimal`, `CGFloat`, an optional date range, URLs alone and in an array, an optional `Bool`,
/// nested optional structs. Each payload the fidelity test makes (numbers in every JSON form,
/// keys twice, elements of another kind) must get the compiled type's verdict.
struct StadiumAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        struct Weather: Codable, Hashable {
            var celsius: Float
            var windKmh: UInt16?
            var gusts: [Float]
        }

        var attendance: UInt32
        var home: Int16
        var away: Int16?
        var price: Decimal
        var ratio: CGFloat?
        var window: ClosedRange<Date>?
        var ticketURL: URL?
        var streams: [URL]
        var isLive: Bool?
        var weather: Weather?
        var interval: TimeInterval
    }
    var venue: String
    var capacity: UInt32?
}
