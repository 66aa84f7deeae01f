import Foundation

/// An extension adds the conformance in a file that also declares the ContentState, the
/// attributes declared first; a URL.
struct TransitAttributes {
    var line: String
}

extension TransitAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var nextStop: String
        var mapLink: URL
        var tripID: String
        var minutesAway: Int
    }
}
