/// An iOS release, as a deployment target: `16.1`, `17`, `17.2`.
public struct IOSVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major release: 16, 17, …
    public var major: Int
    /// The minor release.
    public var minor: Int

    /// iOS 16.1, the first with Live Activities: the default deployment target.
    public static let liveActivities = IOSVersion(16, 1)
    /// iOS 17, from which `URL(string:)` parses by RFC 3986 and percent-encodes what it must.
    public static let rfc3986URLs = IOSVersion(17, 0)
    /// iOS 18, from which a push-to-start may join a broadcast channel (`input-push-channel`).
    public static let broadcastChannels = IOSVersion(18, 0)

    /// Creates a version.
    /// - Parameters:
    ///   - major: The major release.
    ///   - minor: The minor release.
    public init(_ major: Int, _ minor: Int = 0) {
        self.major = major
        self.minor = minor
    }

    /// Reads `16.1`, `17` or `17.0.1` (the patch release is dropped); `nil` for anything else.
    /// - Parameter text: The version as a schema writes it.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count),
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let major = Int(parts[0]), let minor = parts.count > 1 ? Int(parts[1]) : 0 else { return nil }
        self.init(major, minor)
    }

    /// `16.1`, `17.0`.
    public var description: String { "\(major).\(minor)" }

    public static func < (lhs: IOSVersion, rhs: IOSVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }
}
