import Foundation

/// A stand-in for ActivityKit's protocol, so that the corpus compiles on Linux.
protocol ActivityAttributes: Decodable {
    associatedtype ContentState: Codable & Hashable & Sendable
}

/// Decodes JSON into each corpus type's real `ContentState`, with Foundation's `JSONDecoder`,
/// as the device does.
enum Compiled {
    static func decoder<A: ActivityAttributes>(_ type: A.Type) -> @Sendable (Data) -> Bool {
        { (try? JSONDecoder().decode(A.ContentState.self, from: $0)) != nil }
    }

    static let types: [String: @Sendable (Data) -> Bool] = [
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
    ]
}
