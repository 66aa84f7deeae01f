import LiveState
import LiveStateImport
import LiveStateYAML

/// What FuzzSwiftImport checks on one input: any bytes as a Swift file through
/// `SwiftImporter.importActivities`, as `livestate import swift` reads it.
///
/// Its own target, apart from `FuzzCommon`, so that only this fuzzer builds swift-syntax. The
/// main package replays `FailCases/FuzzSwiftImport` through the same function
/// (`Tests/LiveStateImportTests/SwiftImportFuzzCasesTests.swift` holds no copy: it calls
/// `SwiftImporter` and checks the same invariants, listed in `Fuzz/README.md`).
public enum FuzzImportHarness {
    /// Runs the check and traps with its message when an invariant breaks.
    public static func run(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
        if let failure = swiftImport(Array(UnsafeRawBufferPointer(start: start, count: count))) {
            fatalError("fuzz invariant broken: \(failure)")
        }
        return 0
    }

    /// No trap; bytes that are not UTF-8 are not read (the CLI refuses them); every diagnostic
    /// has a position inside the file whose line and column match its offset; and every imported
    /// activity's schema, as the CLI writes it, loads, or the activity has a review that says why
    /// (Swift that compiles into what a schema cannot state; the CLI then writes nothing).
    /// - Parameter bytes: The file.
    /// - Returns: What broke, or `nil`.
    public static func swiftImport(_ bytes: [UInt8]) -> String? {
        guard let source = String(validating: bytes, as: UTF8.self) else { return nil }
        let result = SwiftImporter.importActivities([("fuzz.swift", source)])
        for diagnostic in result.diagnostics + result.activities.flatMap(\.reviews) {
            guard let position = diagnostic.position else {
                if diagnostic.code == SwiftImporter.noActivity { continue }
                return "\(diagnostic.code) without a position: \(diagnostic.message)"
            }
            guard position.offset >= 0, position.offset <= bytes.count else {
                return "\(diagnostic.code) at offset \(position.offset) of \(bytes.count) bytes"
            }
            let (line, column) = swiftLineAndColumn(of: position.offset, in: bytes)
            guard position.line == line, position.column == column else {
                return "\(diagnostic.code) says \(position.line):\(position.column), its offset \(position.offset) is \(line):\(column)"
            }
        }
        if result.activities.isEmpty, !result.diagnostics.contains(where: { $0.severity == .error }) {
            return "no activity and no error"
        }
        for activity in result.activities {
            let yaml = SchemaYAMLWriter.schema(activity: "fuzz", activity, source: "fuzz.swift")
            do throws(SchemaLoadError) {
                _ = try SchemaLoader().load(yaml: Array(yaml.utf8), file: "fuzz.yaml")
            } catch {
                if !activity.reviews.isEmpty { continue }
                return "the schema imported from \(activity.attributesType) does not load: \(error.diagnostics.map(\.message))"
            }
        }
        return nil
    }

    /// Line and column as the Swift compiler counts them: `\n`, `\r\n` and a lone `\r` each end
    /// a line; the column counts UTF-8 bytes.
    static func swiftLineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        var index = 0
        while index < offset {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\r"), index < bytes.count, bytes[index] == UInt8(ascii: "\n") {
                guard index < offset else { break }
                index += 1
            }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                line += 1
                lineStart = index
            }
        }
        return (line, offset - lineStart + 1)
    }
}
