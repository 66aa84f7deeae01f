import Foundation
import LiveState
import LiveStateTooling
import LiveStateYAML

/// The schemas the server answers from: loaded once, never changed, replaced whole on reload.
///
/// Everything a request needs is built here, once per snapshot: one `PayloadValidator` and one
/// `ContentStateEncoder` per schema version. A request takes the snapshot current when it
/// starts and keeps it to the end, so a reload never changes the schemas under it.
///
/// ```swift
/// let snapshot = try SchemaSnapshot.load(from: ["schemas"], generation: 1)
/// let entry = snapshot.entry(for: "delivery")
/// ```
public final class SchemaSnapshot: Sendable {
    /// One schema and what serves it.
    public struct Entry: Sendable {
        /// The schema.
        public let schema: Schema
        /// One validator per version, oldest first, with default options.
        public let validators: [PayloadValidator]
        /// One encoder per version, oldest first, with default options.
        public let encoders: [ContentStateEncoder]
        /// Devices per version, when a fleet file for the schema was loaded with it.
        public let fleet: Fleet?

        /// Builds the validators and encoders of every version of a schema.
        /// - Parameters:
        ///   - schema: The schema.
        ///   - fleet: Devices per version, if known.
        public init(schema: Schema, fleet: Fleet? = nil) {
            self.schema = schema
            self.fleet = fleet
            validators = schema.versions.compactMap { try? PayloadValidator(schema: schema, version: $0.version) }
            // Each encoder checks the bodies it writes with its version's validator above.
            encoders = validators.compactMap {
                try? ContentStateEncoder(schema: schema, version: $0.decoder.version.version, checkingBodiesWith: $0.checker)
            }
        }

        /// The version numbers, oldest first.
        public var versions: [Int] { schema.versions.map(\.version) }

        /// The validator for a version.
        /// - Parameter version: The version number; `nil` is the newest.
        /// - Returns: The validator, or `nil` when the schema has no such version.
        public func validator(for version: Int?) -> PayloadValidator? {
            guard let version else { return validators.last }
            return validators.first { $0.decoder.version.version == version }
        }

        /// The encoder for a version.
        /// - Parameter version: The version number; `nil` is the newest.
        /// - Returns: The encoder, or `nil` when the schema has no such version.
        public func encoder(for version: Int?) -> ContentStateEncoder? {
            guard let version else { return encoders.last }
            return encoders.first { $0.version.version == version }
        }
    }

    /// The schemas by id (`activity`).
    public let entries: [String: Entry]
    /// The ids, sorted.
    public let ids: [String]
    /// Counts the snapshots a store has loaded: 1 for the first, one more per successful reload.
    public let generation: Int
    /// Warnings from loading (a folder without schema files, say); never errors.
    public let warnings: [Diagnostic]

    /// Creates a snapshot from loaded schemas.
    /// - Parameters:
    ///   - schemas: The schemas; their ids must differ.
    ///   - generation: The snapshot's number.
    ///   - warnings: Warnings from loading.
    ///   - fleets: Devices per version, by schema id.
    public init(schemas: [Schema], generation: Int, warnings: [Diagnostic] = [], fleets: [String: Fleet] = [:]) {
        var entries: [String: Entry] = [:]
        for schema in schemas where entries[schema.activity] == nil {
            entries[schema.activity] = Entry(schema: schema, fleet: fleets[schema.activity])
        }
        self.entries = entries
        self.ids = entries.keys.sorted()
        self.generation = generation
        self.warnings = warnings
    }

    /// The entry for a schema id.
    /// - Parameter id: The schema's `activity`.
    /// - Returns: The entry, or `nil`.
    public func entry(for id: String) -> Entry? {
        entries[id]
    }

    /// Loads every schema under `paths` (files, or folders of `*.yaml`/`*.yml`) into a snapshot.
    ///
    /// All or nothing: any error in any file, two files with one id, or no schema at all fails
    /// the whole load, so a server never answers from half a folder.
    /// - Parameters:
    ///   - paths: Schema files and folders.
    ///   - generation: The new snapshot's number.
    ///   - loader: The schema loader.
    ///   - fleetPath: A folder of fleet files named by schema id (`delivery.csv`), or one such
    ///     file; each is read with its schema, and an error in one fails the load too, as do
    ///     two files for one schema (`delivery.csv` and `delivery.yaml`).
    /// - Returns: The snapshot.
    /// - Throws: `SchemaLoadError` with every error found.
    public static func load(
        from paths: [String], generation: Int, loader: SchemaLoader = .init(), fleetPath: String? = nil
    ) throws(SchemaLoadError) -> SchemaSnapshot {
        let (schemas, diagnostics) = loader.loadAll(paths)
        var errors = diagnostics.filter { $0.severity == .error }
        var seen: [String: String] = [:]
        for schema in schemas {
            if let first = seen[schema.activity] {
                errors.append(Diagnostic(
                    code: DiagnosticCode.schemaDuplicateName, severity: .error,
                    message: "schema id '\(schema.activity)' is also loaded from \(first); ids must be unique",
                    file: schema.file, scope: .schema, pointer: "/activity"))
            } else {
                seen[schema.activity] = schema.file ?? schema.activity
            }
        }
        if schemas.isEmpty && errors.isEmpty {
            errors.append(Diagnostic(
                code: DiagnosticCode.schemaEmpty, severity: .error,
                message: "no schema found in \(paths.joined(separator: ", "))", file: paths.first, scope: .schema, pointer: ""))
        }
        var fleets: [String: Fleet] = [:]
        // A fleet's warnings (a live version without a row, devices on a retired one) are the
        // set's, as the schemas' are: said at the start, on a reload and in /v1/schemas (they
        // were dropped, and a version without a row weighed nothing unsaid).
        var fleetWarnings: [Diagnostic] = []
        if let fleetPath, !FileManager.default.fileExists(atPath: fleetPath) {
            // Before the name of a missing file is taken for a schema id.
            errors.append(Diagnostic(code: DiagnosticCode.fleetIO, severity: .error,
                                     message: "cannot read: no such file or directory", file: fleetPath, scope: .fleet))
        } else if let fleetPath {
            let files = fleetFiles(at: fleetPath)
            if files.isEmpty {
                errors.append(Diagnostic(code: DiagnosticCode.fleetIO, severity: .error,
                                         message: "holds no fleet file (<schema id>.csv, .json or .yaml)", file: fleetPath, scope: .fleet))
            }
            let loaded = schemas.isEmpty ? "none" : schemas.map(\.activity).sorted().joined(separator: ", ")
            var firstFile: [String: String] = [:]
            for (id, file) in files {
                if let first = firstFile[id] {
                    // Which of the two holds the right counts is not for the server to guess.
                    errors.append(Diagnostic(code: DiagnosticCode.fleetDuplicateSchema, severity: .error,
                                             message: "gives the fleet of schema '\(id)', as \(first) does; keep one of the two files",
                                             file: file, scope: .fleet))
                    continue
                }
                firstFile[id] = file
                guard let schema = schemas.first(where: { $0.activity == id }) else {
                    errors.append(Diagnostic(code: DiagnosticCode.fleetUnknownSchema, severity: .error,
                                             message: "is named for schema '\(id)', which is not loaded (loaded: \(loaded))",
                                             file: file, scope: .fleet))
                    continue
                }
                let (fleet, problems) = FleetLoader.load(contentsOf: file, for: schema)
                errors += problems.filter { $0.severity == .error }
                fleetWarnings += problems.filter { $0.severity != .error }
                fleets[id] = fleet
            }
        }
        guard errors.isEmpty else { throw SchemaLoadError(diagnostics: errors) }
        return SchemaSnapshot(schemas: schemas, generation: generation, warnings: diagnostics.filter { $0.severity != .error } + fleetWarnings,
                              fleets: fleets)
    }

    /// The fleet files at `path`, by the schema id their name gives: the `.csv`, `.json`,
    /// `.yaml` and `.yml` files of a folder, or the one file named.
    static func fleetFiles(at path: String) -> [(id: String, file: String)] {
        let extensions = [".csv", ".json", ".yaml", ".yml"]
        func id(_ name: String) -> String? {
            // As the loader reads them: `delivery.CSV` is a CSV file too.
            extensions.first { name.lowercased().hasSuffix($0) }.map { String(name.dropLast($0.count)) }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            let name = String(path.split(separator: "/").last ?? "")
            return [(id(name) ?? name, path)]
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        let prefix = path.hasSuffix("/") ? path : path + "/"
        return names.compactMap { name in id(name).map { ($0, prefix + name) } }
    }
}
