import Foundation

/// What teams do today without LiveState: `JSONSerialization` into `[String: Any]`, then a
/// hand-written default for every schema field (version 3) read with `as?`.
///
/// Type checks and defaults only: no length or range constraints, no diagnostics. A missing
/// or mistyped `title` (required, no default) rejects the payload.
public enum SerializationDefaulting {
    /// Decodes a content-state the hand-written way.
    /// - Parameter data: The JSON text.
    /// - Returns: The state, or `nil` when the JSON is not an object or has no `title`.
    public static func decode(_ data: Data) -> Delivery? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return delivery(from: object)
    }

    /// Builds the state from a parsed object, defaulting every missing or mistyped field.
    /// - Parameter object: The parsed content-state.
    /// - Returns: The state, or `nil` without a `title`.
    public static func delivery(from object: [String: Any]) -> Delivery? {
        guard let title = object["title"] as? String else { return nil }
        let courier = object["courier"] as? [String: Any] ?? [:]
        let items = (object["items"] as? [Any])?.compactMap { $0 as? String } ?? []
        return Delivery(
            logo: object["logo"] as? String ?? "",
            title: title,
            subtitle: object["subtitle"] as? String ?? object["subTitle"] as? String ?? "",
            progress: object["progress"] as? Double ?? 0,
            eta: Date(timeIntervalSinceReferenceDate: object["eta"] as? Double ?? 0),
            etaText: object["etaText"] as? String ?? "",
            status: (object["status"] as? String).flatMap(Delivery.Status.init(rawValue:)) ?? .pending,
            delayMinutes: object["delayMinutes"] as? Int ?? 0,
            courier: Delivery.Courier(
                name: courier["name"] as? String ?? "",
                rating: courier["rating"] as? Double ?? 0),
            items: items,
            note: object["note"] as? String,
            badge: object["badge"] as? String ?? "")
    }
}
