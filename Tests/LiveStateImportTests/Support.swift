import Foundation

/// A stand-in for ActivityKit's protocol, so that the corpus compiles on Linux.
protocol ActivityAttributes: Decodable {
    associatedtype ContentState: Codable & Hashable & Sendable
}

/// Decodes JSON into each corpus type's real `ContentState`, with Foundation's `JSONDecoder`,
/// as the device does: the state the app holds, written back by its `Encodable` side as
/// `JSONSerialization` reads it (`nil` when the app drops the update).
enum Compiled {
    /// One corpus type: its `ContentState` as the app holds it, and whether the attributes decode.
    struct Activity: Sendable {
        var state: @Sendable (Data) -> [String: Any]?
        var attributesDecode: @Sendable (Data) -> Bool
    }

    static func decoder<A: ActivityAttributes>(_ type: A.Type) -> Activity {
        Activity(state: { data in
            guard let state = try? JSONDecoder().decode(A.ContentState.self, from: data) else { return nil }
            let written = try! JSONEncoder().encode(state)
            return try! JSONSerialization.jsonObject(with: written) as? [String: Any]
        }, attributesDecode: { data in (try? JSONDecoder().decode(A.self, from: data)) != nil })
    }

    static let types: [String: Activity] = [
        "RideAttributes": decoder(RideAttributes.self),
        "OrderAttributes": decoder(OrderAttributes.self),
        "ScoreAttributes": decoder(ScoreAttributes.self),
        "FlightAttributes": decoder(FlightAttributes.self),
        "TimerAttributes": decoder(TimerAttributes.self),
        "ParcelAttributes": decoder(ParcelAttributes.self),
        "ChargeAttributes": decoder(ChargeAttributes.self),
        "WorkoutAttributes": decoder(WorkoutAttributes.self),
        "AuctionAttributes": decoder(AuctionAttributes.self),
        "TransitAttributes": decoder(TransitAttributes.self),
        "DeliveryAttributes": decoder(DeliveryAttributes.self),
        "MatchAttributes": decoder(MatchAttributes.self),
        "BoardingAttributes": decoder(BoardingAttributes.self),
        "WeatherAttributes": decoder(WeatherAttributes.self),
        "LockerAttributes": decoder(LockerAttributes.self),
        "SignalAttributes": decoder(SignalAttributes.self),
        "IterableLiveActivityAttributes": decoder(IterableLiveActivityAttributes.self),
        "KioskAttributes": decoder(KioskAttributes.self),
        "RentalAttributes": decoder(RentalAttributes.self),
        "CourierAttributes": decoder(CourierAttributes.self),
        "StadiumAttributes": decoder(StadiumAttributes.self),
        "TrackerAttributes": decoder(TrackerAttributes.self),
        "GlucoseAttributes": decoder(GlucoseAttributes.self),
        "StopwatchAttributes": decoder(StopwatchAttributes.self),
        "CountdownAttributes": decoder(CountdownAttributes.self),
        "PassAttributes": decoder(PassAttributes.self),
    ]
}
