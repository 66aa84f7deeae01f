/// Limits and policies for scanning a JSON document.
///
/// The defaults suit ActivityKit payloads: a few kilobytes, shallow nesting.
public struct JSONScanOptions: Sendable, Hashable {
    /// The most arrays and objects that may be open at once; opening one more is a `.limit` error.
    public var maxDepth: Int
    /// The largest input accepted, in bytes; a larger input is a `.limit` error at offset 0.
    public var maxInputBytes: Int
    /// What `JSONValidator` does when an object has the same key twice.
    public var duplicateKeys: DuplicateKeyPolicy

    /// What to do with a key that occurs twice in one object (compared after unescaping).
    public enum DuplicateKeyPolicy: Sendable, Hashable {
        /// Return each duplicate as a `JSONDuplicateKey`; the document is still accepted.
        case report
        /// Throw a `.syntax` error at the second occurrence.
        case reject
        /// Do not look for duplicates.
        case ignore
    }

    /// Creates scan options.
    /// - Parameters:
    ///   - maxDepth: The most arrays and objects open at once (default 64).
    ///   - maxInputBytes: The largest input accepted, in bytes (default 1 MiB).
    ///   - duplicateKeys: What `JSONValidator` does with duplicate keys (default `.report`).
    public init(maxDepth: Int = 64, maxInputBytes: Int = 1 << 20, duplicateKeys: DuplicateKeyPolicy = .report) {
        self.maxDepth = maxDepth
        self.maxInputBytes = maxInputBytes
        self.duplicateKeys = duplicateKeys
    }
}
