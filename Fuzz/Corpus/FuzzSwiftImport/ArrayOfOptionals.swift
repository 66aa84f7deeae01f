import ActivityKit

// Arrays of optionals: a schema's items cannot be null, so the import writes the wrapped type
// and reviews the element.
struct LapsAttributes: ActivityAttributes {
    struct Lap: Codable, Hashable { var splits: [Double?]; var label: String? }
    struct ContentState: Codable, Hashable {
        var laps: [Int?]
        var names: Array<String?>?
        var grid: [[Double?]]
        var legs: [Lap?]
        var marks: Set<Optional<Int>>
    }
    var race: String
}
