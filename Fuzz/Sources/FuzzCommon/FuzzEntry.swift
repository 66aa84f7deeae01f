import LiveState
import LiveStateYAML

/// The bundled schemas, loaded once, and the entry point every fuzz target's
/// `LLVMFuzzerTestOneInput` calls.
public enum FuzzEntry {
    /// Every version of every bundled schema, in `BundledSchemas.files` order.
    public static let targets: [FuzzHarness.Target] = FuzzHarness.targets(BundledSchemas.files.map { file in
        do throws(SchemaLoadError) {
            return try SchemaLoader().load(yaml: Array(file.yaml.utf8), file: file.name)
        } catch {
            fatalError("bundled schema \(file.name) does not load: \(error)")
        }
    })

    /// Runs one check on libFuzzer's input and traps with its message when an invariant breaks.
    /// - Parameters:
    ///   - start: The input's first byte.
    ///   - count: The input's length.
    ///   - check: The harness check.
    /// - Returns: 0, what libFuzzer expects of an input it may keep.
    public static func run(
        _ start: UnsafeRawPointer, _ count: Int, _ check: (UnsafeRawBufferPointer) -> String?
    ) -> CInt {
        if let failure = check(UnsafeRawBufferPointer(start: start, count: count)) {
            fatalError("fuzz invariant broken: \(failure)")
        }
        return 0
    }
}
