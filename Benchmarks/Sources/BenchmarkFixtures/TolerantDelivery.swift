import Foundation

/// What a team writes today to make `Delivery` tolerant without LiveState: a hand-written
/// `init(from:)` for Foundation's `JSONDecoder` that follows schema version 3. A field whose key
/// is missing, or whose value is null, of another type or outside the schema's length or range,
/// takes its default; an unknown status reads as `pending`; `subtitle` is also read under its
/// old name `subTitle`. `title` (required) and `progress` (`on-invalid: reject`) still throw,
/// as LiveState rejects the state then. Unknown keys are ignored. No diagnostics are made.
///
/// This is the reference the issue's speed targets name ("a hand-written tolerant
/// `JSONDecoder` type"); `Delivery` with synthesized `Codable` is the faster, stricter one.
public struct TolerantDelivery: Decodable, Sendable, Hashable {
    /// The state read.
    public var delivery: Delivery

    private enum Key: String, CodingKey {
        case logo, title, subtitle, subTitle, progress, eta, etaText, status, delayMinutes, courier, items, note, badge
    }

    private enum CourierKey: String, CodingKey {
        case name, rating
    }

    /// A field without which the state is not shown.
    private struct Rejected: Error {
        var field: String
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard let title = Self.string(container, .title, maxLength: 64) else { throw Rejected(field: "title") }
        let progress = try container.decodeIfPresent(Double.self, forKey: .progress) ?? 0
        guard (0 ... 1).contains(progress) else { throw Rejected(field: "progress") }
        let items = (try? container.decodeIfPresent([String].self, forKey: .items))
            .flatMap { $0 }
            .flatMap { $0.count <= 40 && $0.allSatisfy { $0.utf8.count <= 64 } ? $0 : nil }
        delivery = Delivery(
            logo: Self.string(container, .logo, maxLength: 32) ?? "",
            title: title,
            subtitle: Self.string(container, .subtitle, maxLength: 96) ?? Self.string(container, .subTitle, maxLength: 96) ?? "",
            progress: progress,
            eta: (try? container.decodeIfPresent(Date.self, forKey: .eta)).flatMap { $0 } ?? Date(timeIntervalSinceReferenceDate: 0),
            etaText: Self.string(container, .etaText, maxLength: 32) ?? "",
            status: (try? container.decodeIfPresent(Delivery.Status.self, forKey: .status)).flatMap { $0 } ?? .pending,
            delayMinutes: Self.number(container, .delayMinutes, in: 0 ... 600) ?? 0,
            courier: Self.courier(container),
            items: items ?? [],
            note: Self.string(container, .note, maxLength: 160),
            badge: Self.string(container, .badge, maxLength: 64) ?? "")
    }

    /// The string under `key`, or `nil` when it is missing, not a string, or too long.
    private static func string<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K, maxLength: Int) -> String? {
        guard let value = try? container.decodeIfPresent(String.self, forKey: key), value.utf8.count <= maxLength else { return nil }
        return value
    }

    /// The number under `key`, or `nil` when it is missing, not such a number, or out of range.
    private static func number<K: CodingKey, N: Decodable & Comparable>(
        _ container: KeyedDecodingContainer<K>, _ key: K, in range: ClosedRange<N>
    ) -> N? {
        guard let value = try? container.decodeIfPresent(N.self, forKey: key), range.contains(value) else { return nil }
        return value
    }

    /// The courier, each field defaulted on its own; the empty courier when it is not an object.
    private static func courier(_ container: KeyedDecodingContainer<Key>) -> Delivery.Courier {
        guard let courier = try? container.nestedContainer(keyedBy: CourierKey.self, forKey: .courier) else {
            return Delivery.Courier(name: "", rating: 0)
        }
        return Delivery.Courier(
            name: string(courier, .name, maxLength: 48) ?? "",
            rating: number(courier, .rating, in: 0.0 ... 5.0) ?? 0)
    }
}
