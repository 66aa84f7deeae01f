/// Limits and policies for scanning a JSON document.
///
/// The defaults suit ActivityKit payloads: a few kilobytes, shallow nesting.
public struct JSONScanOptions: Sendable, Hashable {
    /// The most arrays and objects that may be open at once; opening one more is a `.jsonLimit` error.
    public var maxDepth: Int
    /// The largest input accepted, in bytes; a larger input is a `.jsonLimit` error at offset 0.
    public var maxInputBytes: Int
    /// What `JSONValidator` does when an object has the same key twice. The decoder and the
    /// validator find duplicate keys by their own walk, so only the scanner's tests, fuzzers and
    /// benchmarks set it.
    @_spi(Scanner) public var duplicateKeys: DuplicateKeyPolicy

    /// What to do with a key that occurs twice in one object (compared after unescaping).
    @_spi(Scanner) public enum DuplicateKeyPolicy: Sendable, Hashable {
        /// Return each duplicate as a `JSONDuplicateKey`; the document is still accepted.
        case report
        /// Throw a `.jsonSyntax` error at the second occurrence.
        case reject
        /// Do not look for duplicates.
        case ignore
    }

    /// Creates scan options.
    /// - Parameters:
    ///   - maxDepth: The most arrays and objects open at once (default 64).
    ///   - maxInputBytes: The largest input accepted, in bytes (default 1 MiB).
    public init(maxDepth: Int = 64, maxInputBytes: Int = 1 << 20) {
        self.init(maxDepth: maxDepth, maxInputBytes: maxInputBytes, duplicateKeys: .report)
    }

    /// Creates scan options with a duplicate-key policy for `JSONValidator`.
    /// - Parameters:
    ///   - maxDepth: The most arrays and objects open at once (default 64).
    ///   - maxInputBytes: The largest input accepted, in bytes (default 1 MiB).
    ///   - duplicateKeys: What `JSONValidator` does with duplicate keys.
    @_spi(Scanner) public init(maxDepth: Int = 64, maxInputBytes: Int = 1 << 20, duplicateKeys: DuplicateKeyPolicy) {
        self.maxDepth = maxDepth
        self.maxInputBytes = maxInputBytes
        self.duplicateKeys = duplicateKeys
    }
}
