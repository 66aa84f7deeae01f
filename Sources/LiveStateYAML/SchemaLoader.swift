import LiveState
import LiveStateTooling

/// Loads schema files (`schemas/NAME.yaml`) into the `LiveState` schema model.
///
/// Loading reads the YAML with libyaml's event API into a small node tree (bounded by
/// `Limits`), maps the tree onto `Schema`, then runs `SchemaValidator`. Every error found
/// is reported, not only the first, each with the file, a 1-based line and column, and a
/// JSON Pointer into the document.
///
/// ```swift
/// let schema = try SchemaLoader().load(contentsOf: "schemas/delivery.yaml")
/// ```
public struct SchemaLoader: Sendable {
    /// The activity id a schema file at `path` must declare: its stem (`schemas/pizza.yaml` →
    /// `pizza`); `nil` for standard input.
    package static func activityID(forFile path: String) -> String? {
        SchemaBuilder.stem(of: path)
    }

    /// Bounds that keep hostile input from costing unbounded time or memory.
    public struct Limits: Sendable, Hashable {
        /// The largest file accepted, in bytes; checked before reading. Default 4 MiB.
        public var maxFileBytes: Int
        /// The deepest nesting of YAML sequences and mappings. Default 32.
        ///
        /// Values above 100 count as 100: building the schema recurses once per level, and
        /// must fit the stack of any thread, a 512 KiB one included.
        public var maxDepth: Int
        /// The most nodes that aliases may copy, in total, per document. Default 1,000,000.
        ///
        /// A schema that merges each version's fields into the next (`<<: *v1`) copies them
        /// once per version: 50 versions of 40 fields copy about 25,000 nodes, and 300 such
        /// versions about 800,000. An alias bomb grows by a factor per line, and passes the
        /// bound within a few lines.
        public var maxAliasExpansion: Int
        /// The most nodes (scalars, sequences, mappings, aliases) one document may hold. Default 100,000.
        ///
        /// A real schema has a few thousand; the bound keeps a file of millions of tiny
        /// scalars from costing hundreds of megabytes of tree.
        public var maxNodes: Int
        /// The most versions one schema may list. Default 1,000.
        ///
        /// A compatibility gate compares every pair of versions, so its cost grows with the
        /// square of this number; 1,000 versions is a release a week for nineteen years.
        public var maxVersions: Int

        /// Creates limits.
        /// - Parameters:
        ///   - maxFileBytes: The largest file accepted, in bytes.
        ///   - maxDepth: The deepest nesting of sequences and mappings.
        ///   - maxAliasExpansion: The most nodes aliases may copy per document.
        ///   - maxNodes: The most nodes one document may hold.
        ///   - maxVersions: The most versions one schema may list.
        public init(
            maxFileBytes: Int = 4 << 20, maxDepth: Int = 32, maxAliasExpansion: Int = 1_000_000, maxNodes: Int = 100_000,
            maxVersions: Int = 1_000
        ) {
            self.maxFileBytes = maxFileBytes
            self.maxDepth = maxDepth
            self.maxAliasExpansion = maxAliasExpansion
            self.maxNodes = maxNodes
            self.maxVersions = maxVersions
        }
    }

    /// The bounds this loader enforces.
    public var limits: Limits

    /// Creates a loader.
    /// - Parameter limits: The bounds on file size, nesting and alias expansion.
    public init(limits: Limits = .init()) {
        self.limits = limits
    }

    /// Loads a schema file.
    /// - Parameter path: The file's path; it becomes `Schema.file` and the diagnostics' file.
    /// - Returns: The schema.
    /// - Throws: `SchemaLoadError`: `schema-io` when the file is missing, a directory,
    ///   unreadable or larger than `maxFileBytes` (checked before reading); otherwise every
    ///   problem `load(yaml:file:)` finds.
    public func load(contentsOf path: String) throws(SchemaLoadError) -> Schema {
        let bytes: [UInt8]
        do {
            bytes = try SchemaFileReader.read(path, maxBytes: limits.maxFileBytes)
        } catch {
            throw SchemaLoadError(diagnostics: [Self.ioDiagnostic(error.message, file: path)])
        }
        return try load(yaml: bytes, file: path)
    }

    /// Loads a schema from YAML text.
    /// - Parameters:
    ///   - yaml: The UTF-8 text.
    ///   - file: The name diagnostics and `Schema.file` carry (`-` for stdin: then `activity`
    ///     is not compared with a file stem).
    /// - Returns: The schema.
    /// - Throws: `SchemaLoadError` with every error found, sorted by position.
    public func load(yaml: [UInt8], file: String) throws(SchemaLoadError) -> Schema {
        if yaml.count > limits.maxFileBytes {
            throw SchemaLoadError(diagnostics: [Self.ioDiagnostic(
                "is \(yaml.count) bytes, over the limit of \(limits.maxFileBytes) bytes for a schema file", file: file)])
        }
        let reader = YAMLTreeReader(
            maxDepth: min(limits.maxDepth, Self.depthCeiling),
            maxAliasExpansion: limits.maxAliasExpansion,
            maxNodes: limits.maxNodes)
        let outcome = reader.read(yaml: yaml)
        let root: YAMLNode
        switch outcome {
        case .failure where Self.isBlank(yaml):
            // libyaml refuses a tab where a token could start, even on a line with nothing else.
            throw SchemaLoadError(diagnostics: [Self.emptyDiagnostic(file: file)])
        case .failure(let error):
            let message = error.position.offset < 2 ? UTF16Text.explaining(error.message, in: yaml) : error.message
            throw SchemaLoadError(diagnostics: [Self.diagnostic(error.code, message, file: file, position: error.position, pointer: "")])
        case .success(nil):
            throw SchemaLoadError(diagnostics: [Self.emptyDiagnostic(file: file)])
        case .success(let node?):
            root = node
        }

        var builder = SchemaBuilder(file: file, maxDiagnostics: Self.maxDiagnostics, maxVersions: limits.maxVersions)
        let schema = builder.build(root)
        var diagnostics = builder.diagnostics
        if let schema, !builder.isSaturated {
            var findings = SchemaValidator.validate(schema)
            if builder.droppedParts {
                // Checks across versions would report the parts left out for their own errors.
                findings.removeAll(where: Self.dependsOnWholeVersions)
            }
            for var diagnostic in findings.prefix(Self.maxDiagnostics - diagnostics.count) {
                if let pointer = diagnostic.pointer {
                    let documentPointer = Self.documentPointer(pointer, versionIndices: builder.versionIndices)
                    diagnostic.pointer = documentPointer
                    if let position = root.position(at: documentPointer) {
                        diagnostic.position = position
                    }
                }
                diagnostics.append(diagnostic)
            }
        }
        diagnostics = Self.ordered(diagnostics)
        if builder.isSaturated || diagnostics.count >= Self.maxDiagnostics {
            diagnostics.append(Self.diagnostic(
                .yamlLimit, "stopped after \(Self.maxDiagnostics) errors; fix these and load again to see more",
                file: file, position: nil, pointer: ""))
        }
        guard let schema, !diagnostics.contains(where: { $0.severity == .error }) else {
            if diagnostics.isEmpty {
                diagnostics = [Self.diagnostic(.schemaWrongType, "the file does not describe a schema", file: file, position: root.position, pointer: "")]
            }
            throw SchemaLoadError(diagnostics: diagnostics)
        }
        return schema
    }

    /// Loads every schema named by `paths`: files as given, directories expanded to their
    /// `*.yaml` and `*.yml` files (sorted by name, not recursive, hidden files skipped).
    /// - Parameter paths: Files and directories.
    /// - Returns: The schemas that loaded, in order, and the diagnostics of those that did not
    ///   (a directory without schema files gives a `schema-io` warning).
    public func loadAll(_ paths: [String]) -> (schemas: [Schema], diagnostics: [Diagnostic]) {
        var schemas: [Schema] = []
        var diagnostics: [Diagnostic] = []
        for path in paths {
            var files = [path]
            do {
                if try SchemaFileReader.kind(of: path) == .directory {
                    let listed = try SchemaFileReader.schemaFiles(in: path)
                    files = listed.files
                    for (file, what) in listed.notRegular {
                        var warning = Self.ioDiagnostic("is \(what), not a schema file, and is not read", file: file)
                        warning.severity = .warning
                        diagnostics.append(warning)
                    }
                    if files.isEmpty, listed.notRegular.isEmpty {
                        var warning = Self.ioDiagnostic("the directory holds no .yaml or .yml files", file: path)
                        warning.severity = .warning
                        diagnostics.append(warning)
                    }
                }
            } catch {
                diagnostics.append(Self.ioDiagnostic(error.message, file: path))
                continue
            }
            for file in files {
                do {
                    schemas.append(try load(contentsOf: file))
                } catch {
                    diagnostics += error.diagnostics
                }
            }
        }
        return (schemas, diagnostics)
    }

    /// The files `loadAll(_:)` reads for `paths`: files as given, directories expanded to their
    /// `*.yaml` and `*.yml` files; a path that cannot be read is kept as given.
    public static func files(named paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            guard (try? SchemaFileReader.kind(of: path)) == .directory else { return [path] }
            return (try? SchemaFileReader.schemaFiles(in: path).files) ?? [path]
        }
    }

    /// The deepest nesting honoured whatever `Limits.maxDepth` says.
    static let depthCeiling = 100

    private static func emptyDiagnostic(file: String) -> Diagnostic {
        diagnostic(.schemaEmpty, "the file holds no schema: it is empty or only comments", file: file,
                   position: SourcePosition(offset: 0, line: 1, column: 1), pointer: "")
    }

    /// Whether every line of `yaml` is blank (spaces, tabs) or a comment.
    static func isBlank(_ yaml: [UInt8]) -> Bool {
        var inComment = false
        for byte in yaml {
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): inComment = false
            case _ where inComment: continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"): continue
            case UInt8(ascii: "#"): inComment = true
            default: return false
            }
        }
        return true
    }

    /// The most errors reported for one file; a final `yaml-limit` diagnostic says when more were cut.
    static let maxDiagnostics = 100

    // MARK: Diagnostics

    private static func diagnostic(
        _ code: DiagnosticCode, _ message: String, file: String, position: SourcePosition?, pointer: String?
    ) -> Diagnostic {
        Diagnostic(code: code, severity: .error, message: message, file: file, position: position, scope: .schema, pointer: pointer)
    }

    /// A file-level problem: it has no position, since nothing in the file was read.
    private static func ioDiagnostic(_ message: String, file: String) -> Diagnostic {
        diagnostic(.schemaIO, message, file: file, position: nil, pointer: "")
    }

    /// Whether a validator finding compares versions or names them, and so may only echo a
    /// field or version the builder left out.
    private static func dependsOnWholeVersions(_ diagnostic: Diagnostic) -> Bool {
        diagnostic.code == DiagnosticCode.schemaRemovedUnknown
            || diagnostic.code == DiagnosticCode.schemaTombstoneReuse
            || diagnostic.pointer?.hasPrefix("/clients/strict/") == true
    }

    /// Rewrites `/versions/M/...` (M an index into the built schema) to the entry's index in the file.
    static func documentPointer(_ pointer: String, versionIndices: [Int]) -> String {
        let prefix = "/versions/"
        guard pointer.hasPrefix(prefix) else { return pointer }
        let rest = pointer.dropFirst(prefix.count)
        let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
        guard let index = Int(digits), versionIndices.indices.contains(index) else { return pointer }
        return prefix + String(versionIndices[index]) + rest.dropFirst(digits.count)
    }

    /// Drops repeated diagnostics and sorts the rest by position, keeping found order for ties;
    /// those without a position come last.
    static func ordered(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen: Set<Diagnostic> = []
        let unique = diagnostics.filter { seen.insert($0).inserted }
        return unique.enumerated().sorted { lhs, rhs in
            let left = lhs.element.position?.offset ?? Int.max
            let right = rhs.element.position?.offset ?? Int.max
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }
}
