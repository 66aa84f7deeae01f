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
        guard let title = container.tolerantString(.title, maxLength: 64) else { throw Rejected(field: "title") }
        let progress = try container.decodeIfPresent(Double.self, forKey: .progress) ?? 0
        guard (0 ... 1).contains(progress) else { throw Rejected(field: "progress") }
        let items = (try? container.decodeIfPresent([String].self, forKey: .items))
            .flatMap { $0 }
            .flatMap { $0.count <= 40 && $0.allSatisfy { $0.utf8.count <= 64 } ? $0 : nil }
        delivery = Delivery(
            logo: container.tolerantString(.logo, maxLength: 32) ?? "",
            title: title,
            subtitle: container.tolerantString(.subtitle, maxLength: 96) ?? container.tolerantString(.subTitle, maxLength: 96) ?? "",
            progress: progress,
            eta: (try? container.decodeIfPresent(Date.self, forKey: .eta)).flatMap { $0 } ?? Date(timeIntervalSinceReferenceDate: 0),
            etaText: container.tolerantString(.etaText, maxLength: 32) ?? "",
            status: (try? container.decodeIfPresent(Delivery.Status.self, forKey: .status)).flatMap { $0 } ?? .pending,
            delayMinutes: container.tolerantNumber(.delayMinutes, in: 0 ... 600) ?? 0,
            courier: Self.courier(container),
            items: items ?? [],
            note: container.tolerantString(.note, maxLength: 160),
            badge: container.tolerantString(.badge, maxLength: 64) ?? "")
    }

    /// The courier, each field defaulted on its own; the empty courier when it is not an object.
    private static func courier(_ container: KeyedDecodingContainer<Key>) -> Delivery.Courier {
        guard let courier = try? container.nestedContainer(keyedBy: CourierKey.self, forKey: .courier) else {
            return Delivery.Courier(name: "", rating: 0)
        }
        return Delivery.Courier(
            name: courier.tolerantString(.name, maxLength: 48) ?? "",
            rating: courier.tolerantNumber(.rating, in: 0.0 ... 5.0) ?? 0)
    }
}
