import Foundation

/// The payloads the benchmarks decode, read from `Benchmarks/Payloads/`.
///
/// `cs200.json`, `cs600.json` and `cs4k.json` are byte for byte the shared benchmark payloads,
/// so figures compare with other tools' figures on the same bytes. `body600.json` is a whole
/// APNs body around `cs600.json`. `grocery500.json` and its body are of another activity.
public enum Payloads {
    /// The content-state payloads, smallest first.
    public static let contentStates = ["cs200", "cs600", "cs4k"]

    /// The APNs body payload.
    public static let body = "body600"

    /// What an older app version gets: `cs600.json` with a status it does not know (it takes
    /// the fallback) and a logo of the wrong type (it takes its default). Not one of the shared
    /// payloads: it measures the decode of a payload with findings, against the hand-written
    /// `JSONSerialization` decode that defaults the same way (`JSONDecoder` throws on it).
    public static let fallback = "cs600-fallback"

    /// What an older app version gets when the server sends what a later schema allows:
    /// `cs600.json` with a logo longer than version 3's `max-length` and a `delayMinutes` above
    /// its `maximum` (both take their default). Not one of the shared payloads; measured against
    /// the hand-written tolerant `JSONDecoder` type, which checks the same lengths and ranges
    /// (`JSONSerialization` with defaults checks none).
    public static let tightened = "cs600-tightened"

    /// A content-state of another activity (`GrocerySchema`), which the speed work was not
    /// measured on: 518 bytes, an array of four objects, an enum, a date, and a key version 3
    /// no longer has (`promoBanner`, which version 2 apps still read).
    public static let untuned = "grocery500"

    /// A whole APNs body around `untuned`.
    public static let untunedBody = "grocery500-body"

    /// The folder holding the payloads: `LIVESTATE_PAYLOADS` when set, else the one beside this
    /// package's sources.
    public static var directory: String {
        if let override = ProcessInfo.processInfo.environment["LIVESTATE_PAYLOADS"], !override.isEmpty {
            return override
        }
        return packageRoot + "/Payloads"
    }

    /// The benchmarks package's folder, found from this source file's path.
    static var packageRoot: String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // BenchmarkFixtures
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // Benchmarks (the package)
            .path
    }

    /// The repository's folder: the parent of the benchmarks package.
    public static var repositoryRoot: String {
        URL(fileURLWithPath: packageRoot).deletingLastPathComponent().path
    }

    /// The bytes of a payload.
    /// - Parameter name: The file's stem, such as `cs600`.
    /// - Returns: The file's bytes.
    public static func bytes(_ name: String) -> [UInt8] {
        let path = directory + "/" + name + ".json"
        guard let data = FileManager.default.contents(atPath: path) else {
            fatalError("cannot read the benchmark payload \(path)")
        }
        return [UInt8](data)
    }
}
