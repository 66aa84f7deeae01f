import LiveState

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
