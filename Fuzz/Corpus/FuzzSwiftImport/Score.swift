import Foundation

/// Conformance on an extension; optionals four ways; string enum with explicit raw values.
struct ScoreAttributes {
    var homeTeam: String
}

extension ScoreAttributes: ActivityAttributes {
    public struct ContentState: Codable, Hashable {
        typealias MaybeText = String?
        var home: Int
        var away: Int
        var phase: Phase
        var minute: Int?
        var note: Optional<String>
        var scorer: String!
        var caption: MaybeText
        var link: URL?
        var total: Int { home + away }
        static let demo = 0
    }
}

enum Phase: String, Codable, Hashable {
    case scheduled
    case live = "in_play"
    case finished
}
