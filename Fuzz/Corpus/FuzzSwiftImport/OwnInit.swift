import Foundation

struct OwnInitAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var title: String
        var at: Date
        var leg: Leg
        enum Keys: String, CodingKey { case title, at = "when", leg }

        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            self.title = try c.decode(String.self, forKey: .title) ?? "x"
            at = Date(timeIntervalSince1970: try c.decode(Double.self, forKey: Keys.at))
            leg = (try? c.decodeIfPresent(Leg.self, forKey: .leg)) ?? Leg(stop: 0)
        }
    }
}

struct Leg: Codable, Hashable {
    var stop: Int
    init(stop: Int) { self.stop = stop }
    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.stop) {
            stop = try! container.decode(Int.self, forKey: .stop)
        } else {
            stop = try container.nestedContainer(keyedBy: CodingKeys.self, forKey: .stop).decode(Int.self, forKey: .stop)
        }
    }
}
