import Foundation

/// A `TimeInterval`, Foundation's alias of `Double`, is a number (reduced from
/// Iterable/iterable-swift-sdk's IterableLiveActivityAttributes).
struct IterableLiveActivityAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var vital: String
        var duration: TimeInterval
        var title: String
    }
}
