import LiveState
import LiveStateTooling

/// Reads a fleet file (devices per schema version) as CSV, JSON or YAML, by its extension:
/// `.json`, `.yaml` or `.yml`; anything else is read as CSV.
///
/// A YAML fleet file is a sequence of rows with the CSV's column names as keys:
///
/// ```yaml
/// - { version: 1, app-version: "1.4.2", ios: "16.7", count: 310 }
/// - { version: 2, count: 2150 }
/// ```
public enum FleetLoader {
    /// The largest fleet file read.
    public static let maxFileBytes = 4 << 20

    /// Reads a fleet file.
    /// - Parameter path: The file.
    /// - Returns: The fleet, or `nil`, and every problem found, each with its position.
    public static func load(contentsOf path: String) -> (Fleet?, [Diagnostic]) {
        let bytes: [UInt8]
        do {
            bytes = try SchemaFileReader.read(path, maxBytes: maxFileBytes, kind: "fleet file")
        } catch {
            return (nil, [Diagnostic(code: DiagnosticCode.fleetIO, severity: .error, message: error.message, file: path, scope: .fleet)])
        }
        let lowered = path.lowercased()
        if lowered.hasSuffix(".json") { return Fleet.parse(json: bytes, file: path) }
        if lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") { return parse(yaml: bytes, file: path) }
        if let problem = csvEncodingProblem(bytes) {
            return (nil, [Diagnostic(code: DiagnosticCode.fleetSyntax, severity: .error, message: problem.message, file: path,
                                     position: problem.position, scope: .fleet)])
        }
        return Fleet.parse(csv: String(decoding: bytes, as: UTF8.self), file: path)
    }

    /// Why CSV bytes cannot be read as lines of UTF-8 text, and where, said plainly rather than
    /// as a header that lacks its columns or a count that is not a number: UTF-16 or UTF-32
    /// text, lines that end in CR alone, or a byte that is not UTF-8.
    static func csvEncodingProblem(_ bytes: [UInt8]) -> (position: SourcePosition, message: String)? {
        let start = SourcePosition(offset: 0, line: 1, column: 1)
        if let encoding = UTF16Text.described(bytes) {
            return (start, "the fleet file is " + UTF16Text.notUTF8(encoding))
        }
        if bytes.contains(UInt8(ascii: "\r")), !bytes.contains(UInt8(ascii: "\n")) {
            return (start, "the fleet file's lines end in CR alone; end them in LF (or CR LF)")
        }
        // Read as UTF-8, a byte that is not would count as a replacement character in a cell.
        guard let offset = UTF16Text.firstInvalidUTF8(in: bytes) else { return nil }
        let byte = String(bytes[offset], radix: 16, uppercase: true)
        return (SourcePosition.locate(offset: offset, in: bytes), "the fleet file is not UTF-8 text: byte 0x\(byte) here is not UTF-8; save the file as UTF-8")
    }

    /// Reads a fleet file for one schema: its own problems, then those of its versions against
    /// the schema's (`Fleet.check(against:)`).
    /// - Parameters:
    ///   - path: The file.
    ///   - schema: The schema whose versions the file counts.
    /// - Returns: The fleet, `nil` when any problem is an error, and every problem found.
    public static func load(contentsOf path: String, for schema: Schema) -> (Fleet?, [Diagnostic]) {
        let (fleet, problems) = load(contentsOf: path)
        let all = problems + (fleet?.check(against: schema) ?? [])
        return (all.contains { $0.severity == .error } ? nil : fleet, all)
    }

    /// Reads a YAML fleet table: a sequence of mappings.
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - file: The file, for diagnostics.
    /// - Returns: The fleet, or `nil`, and every problem found.
    public static func parse(yaml bytes: [UInt8], file: String) -> (Fleet?, [Diagnostic]) {
        let start = SourcePosition(offset: 0, line: 1, column: 1)
        func failure(_ code: DiagnosticCode, _ message: String, at position: SourcePosition?, pointer: String? = nil) -> (Fleet?, [Diagnostic]) {
            (nil, [Diagnostic(code: code, severity: .error, message: message, file: file, position: position, scope: .fleet, pointer: pointer)])
        }
        // Nodes enough for the rows a 4 MiB file holds (five a row: 40,000 rows are 200,000).
        let reader = YAMLTreeReader(maxDepth: 8, maxAliasExpansion: 10_000, maxNodes: 1_000_000, kind: "a fleet file")
        let outcome = reader.read(yaml: bytes)
        let root: YAMLNode
        switch outcome {
        case .failure(let error):
            return failure(DiagnosticCode.fleetSyntax, error.message, at: error.position)
        case .success(nil):
            return failure(DiagnosticCode.fleetEmpty, "the fleet file is empty; it needs a row per schema version", at: start)
        case .success(let node?):
            root = node
        }
        guard case .sequence(let elements) = root.content else {
            return failure(DiagnosticCode.fleetSyntax, "a YAML fleet file is a sequence of rows: - { version: 1, count: 310 }", at: root.position)
        }
        var rows: [Fleet.Row] = []
        for element in elements {
            let rowPointer = "/\(rows.count)"
            guard case .mapping(let pairs) = element.content else {
                return failure(DiagnosticCode.fleetSyntax, "each row of a YAML fleet file is a mapping", at: element.position, pointer: rowPointer)
            }
            var row = Fleet.Row(position: element.position, pointer: rowPointer)
            for pair in pairs {
                guard let written = pair.key.scalar?.text else { continue }
                let key = Fleet.columnName(written)
                let pointer = JSONPointer.appending(written, to: rowPointer)
                if row.cells[key] != nil {
                    return failure(DiagnosticCode.fleetDuplicateColumn, "the row names '\(key)' twice", at: pair.key.position, pointer: pointer)
                }
                guard let text = pair.value.scalar?.text else {
                    guard !Fleet.columns.contains(key) else {
                        return failure(Fleet.code(ofColumn: key), "'\(key)' must be a number or a string, not \(pair.value.described)",
                                       at: pair.value.position, pointer: pointer)
                    }
                    continue
                }
                row.cells[key] = (text, pair.value.position, pointer)
            }
            rows.append(row)
        }
        return Fleet.build(rows: rows, file: file, start: start)
    }
}
