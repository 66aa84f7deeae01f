/// Which way a pair of schema versions is read: readers are app versions, writers are the
/// server's payloads for a version.
public enum CompatibilityDirection: String, Sendable, Hashable, CaseIterable, Comparable {
    /// An app with the older version decodes a payload written for the newer version: the
    /// server moved on and the app in the field did not update.
    case oldAppReadsNew = "old-app-reads-new"
    /// An app with the newer version decodes a payload written for the older version: the app
    /// updated before the server did, or an old payload is replayed.
    case newAppReadsOld = "new-app-reads-old"

    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs == .oldAppReadsNew && rhs == .newAppReadsOld
    }
}

/// One reader–writer pair of versions, read one way.
public struct CompatibilityPair: Sendable, Hashable, CustomStringConvertible {
    /// The app version that decodes.
    public var readerVersion: Int
    /// The version the payload was written for.
    public var writerVersion: Int

    /// Creates a pair.
    /// - Parameters:
    ///   - readerVersion: The app version that decodes.
    ///   - writerVersion: The version the payload was written for.
    public init(readerVersion: Int, writerVersion: Int) {
        self.readerVersion = readerVersion
        self.writerVersion = writerVersion
    }

    /// `old-app-reads-new` when the reader is older than the writer, else `new-app-reads-old`.
    public var direction: CompatibilityDirection {
        readerVersion < writerVersion ? .oldAppReadsNew : .newAppReadsOld
    }

    /// `app v1 reads v2`.
    public var description: String { "app v\(readerVersion) reads v\(writerVersion)" }
}
