import Foundation

/// The two reads the hand-written tolerant types (`TolerantDelivery`, `TolerantGrocery`) make
/// of every field, as a team's tolerant `init(from:)` makes them.
extension KeyedDecodingContainer {
    /// The string under `key`, or `nil` when it is missing, not a string, or too long.
    func tolerantString(_ key: Key, maxLength: Int) -> String? {
        guard let value = try? decodeIfPresent(String.self, forKey: key), value.utf8.count <= maxLength else { return nil }
        return value
    }

    /// The number under `key`, or `nil` when it is missing, not such a number, or out of range.
    func tolerantNumber<N: Decodable & Comparable>(_ key: Key, in range: ClosedRange<N>) -> N? {
        guard let value = try? decodeIfPresent(N.self, forKey: key), range.contains(value) else { return nil }
        return value
    }
}
