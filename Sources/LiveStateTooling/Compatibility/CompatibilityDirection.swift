import LiveState

/// Which way a pair of schema versions is read: readers are app versions, writers are the
/// server's payloads for a version.
public enum CompatibilityDirection: String, Sendable, Hashable, CaseIterable, Comparable {
    /// An app with the older version decodes a payload written for the newer version: the
    /// server moved on and the app in the field did not update.
    case oldAppReadsNew = "old-app-reads-new"
    /// An app with the newer version decodes a payload written for the older version: the app
    /// updated before the server did, or an old payload is replayed.
    case newAppReadsOld = "new-app-reads-old"

    /// `old-app-reads-new` sorts first, the order reports list a pair's two directions in.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs == .oldAppReadsNew && rhs == .newAppReadsOld
    }
}
