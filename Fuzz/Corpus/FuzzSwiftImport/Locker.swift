import Foundation

/// A final class ContentState with hand-written Hashable, a `let` without an initial value
/// (decoded) beside one with (not decoded), and public access levels.
public struct LockerAttributes: ActivityAttributes {
    public final class ContentState: Codable, Hashable, @unchecked Sendable {
        public let code: String
        public let vendor = "acme"
        public var opened: Bool
        public var expiresAt: Date?

        public static func == (lhs: ContentState, rhs: ContentState) -> Bool { lhs.code == rhs.code }
        public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    }
    public var lockerID: Int
}
