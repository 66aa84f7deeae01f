import Foundation

/// A custom `init(from:)` written with `if let`: with an `else` that assigns the fallback, without
/// one (the property keeps its initial value, or `nil`), with `try?` in the binding; `do`-`catch`
/// with the fallback in the `catch`; and the
/// collections that decode from a JSON array (`Set`, `ContiguousArray`). The import reads each
/// `if let` as the `??` it equals, and the version it writes must give this type's verdicts.
/// The nested types decode with synthesized `Codable` inside a version that is not a strict
/// client: their optional fields refuse a value of another type, as `decodeIfPresent` does.
struct RentalAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        enum Lock: String, Codable, Hashable { case locked, unlocked }

        var battery = 100
        var zone: String
        var lock: Lock
        var rate: Double
        var endsAt: Date?
        var warnings: Set<String>
        var stations: ContiguousArray<Int>
        var riders: Int
        var scooter: Scooter
        var docks: [Dock]
        var plan: Int

        enum CodingKeys: String, CodingKey {
            case battery, zone, lock, rate, warnings, stations, riders, scooter, docks, plan
            case endsAt = "ends_at"
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let level = try container.decodeIfPresent(Int.self, forKey: .battery) {
                battery = level
            }
            if let zone = try container.decodeIfPresent(String.self, forKey: .zone) {
                self.zone = zone
            } else {
                self.zone = "downtown"
            }
            if let lock = try? container.decode(Lock.self, forKey: .lock) { self.lock = lock } else { self.lock = .locked }
            rate = try container.decode(Double.self, forKey: .rate)
            if let endsAt = try container.decodeIfPresent(Date.self, forKey: .endsAt) { self.endsAt = endsAt }
            warnings = try container.decodeIfPresent(Set<String>.self, forKey: .warnings) ?? []
            stations = try container.decode(ContiguousArray<Int>.self, forKey: .stations)
            if let riders = try? container.decodeIfPresent(Int.self, forKey: .riders) { self.riders = riders } else { self.riders = 1 }
            scooter = try container.decode(Scooter.self, forKey: .scooter)
            docks = try container.decodeIfPresent([Dock].self, forKey: .docks) ?? []
            do {
                plan = try container.decode(Int.self, forKey: .plan)
            } catch {
                plan = 30
            }
        }
    }
    var scooterID: String
}

struct Scooter: Codable, Hashable {
    var plate: String
    var color: String?
    var rangeKm: Int8?
    var seats = 1
}

struct Dock: Codable, Hashable {
    var name: String
    var freeSince: Date?
}
