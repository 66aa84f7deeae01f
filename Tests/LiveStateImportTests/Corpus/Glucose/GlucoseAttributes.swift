import Foundation

/// The shape of a diabetes app's activity, split over two files as such apps split theirs:
/// `let` properties, structs nested two deep, an array of structs, arrays of enums, `Decimal`,
/// an optional `Date`, and an `Int` enum made `Codable` by an extension in this file while it is
/// declared in the other.
struct GlucoseAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        struct Reading: Codable, Hashable {
            struct Band: Codable, Hashable {
                let low: Int
                let high: Int
            }

            let value: Int
            let at: Date
            let band: Band?
        }

        let readings: [Reading]
        let trend: Trend?
        let unit: GlucoseUnit
        let onBoard: Decimal
        let lastDose: Date?
        let alerts: [GlucoseAlert]
    }

    let startedAt: Date
}

extension Trend: Codable {}
