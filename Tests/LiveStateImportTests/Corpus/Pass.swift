import Foundation

/// `UUID` and `Data` properties: strings of a format (`format: uuid`, `format: base64`), which
/// `JSONDecoder` reads with `UUID(uuidString:)` and its default `.base64` strategy.
struct PassAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var passID: UUID
        var barcode: Data
        var companions: [UUID]
        var seat: UUID?
    }

    var holder: String
    var issuerID: UUID
}
