import Foundation
@_spi(Scanner) import LiveState

/// How many active devices (or live push tokens) run each schema version of an activity: what
/// turns "app version 1 drops this update" into "3.0% of devices drop it".
///
/// A fleet file is a table with a header and at least the columns `version` and `count`, one row
/// per schema version; `app-version` and `ios` may be given too, and rows of one version add up.
/// `Fleet.parse(csv:file:)` and `Fleet.parse(json:file:)` read it; `LiveStateYAML`'s `FleetLoader`
/// reads any of CSV, JSON and YAML by the file's extension.
///
/// ```csv
/// version,app-version,ios,count
/// 1,1.4.2,16.7,310
/// 2,2.0.1,17.5,2150
/// 3,2.3.0,18.1,7540
/// ```
public struct Fleet: Sendable, Hashable {
    /// Devices per schema version.
    public var devices: [Int: Int]
    /// Devices per schema version and iOS release, for rows that give one (`ios`).
    public var devicesByIOS: [Int: [String: Int]]
    /// The file the fleet was read from.
    public var file: String?
    /// Where each version's first row is, for findings about it.
    public var positions: [Int: SourcePosition]
    /// The JSON Pointer of each version's first row in a JSON or YAML file (`/2`); none in CSV.
    var rowPointers: [Int: String] = [:]

    /// Creates a fleet.
    /// - Parameters:
    ///   - devices: Devices per schema version.
    ///   - devicesByIOS: Devices per schema version and iOS release.
    ///   - file: The file it was read from.
    ///   - positions: Where each version's first row is.
    public init(devices: [Int: Int], devicesByIOS: [Int: [String: Int]] = [:], file: String? = nil, positions: [Int: SourcePosition] = [:]) {
        self.devices = devices
        self.devicesByIOS = devicesByIOS
        self.file = file
        self.positions = positions
    }

    /// Every device counted.
    public var total: Int { devices.values.reduce(0, +) }

    /// The devices on any of `versions`.
    public func devices(on versions: some Sequence<Int>) -> Int {
        Set(versions).reduce(0) { $0 + (devices[$1] ?? 0) }
    }

    /// `count` as a share of every device, from 0 to 1.
    public func share(_ count: Int) -> Double {
        total == 0 ? 0 : Double(count) / Double(total)
    }

    /// `count` as a percentage for messages: `3.0%`, `<0.1%` for a few devices, `0%` for none.
    public func percent(_ count: Int) -> String {
        Self.percent(count, of: total)
    }

    /// The devices on `version` that drop a push for which that version reports `findings`
    /// (`devices(on:reachedBy:)` of its errors).
    /// - Returns: The devices, and the iOS they are on when they are not all the version's
    ///   (`iOS 16`, `iOS 17 and later`).
    public func devicesDropping(on version: Int, findings: [Diagnostic]) -> (devices: Int, onlyOn: String?) {
        devices(on: version, reachedBy: findings.filter(\.dropsPush))
    }

    /// The devices on `version` that `findings` of that version reach: all of them, or, when
    /// the fleet knows the iOS of the version's devices (an `ios` column), those on iOS 16 when
    /// every finding is about a URL only iOS 16 refuses, those on iOS 17 and later when every
    /// one is about a URL only they refuse, and those of rows with no `ios` (their iOS is not
    /// known) either way. Asked of a version's errors (who drops) and of its fallbacks (who
    /// shows a default).
    /// - Returns: The devices, and the iOS they are on when they are not all the version's
    ///   (`iOS 16`, `iOS 17 and later`).
    public func devices(on version: Int, reachedBy findings: [Diagnostic]) -> (devices: Int, onlyOn: String?) {
        let all = devices[version] ?? 0
        guard !findings.isEmpty, let byIOS = devicesByIOS[version] else { return (all, nil) }
        // Rows with no `ios` are devices whose iOS is not known: reached by every finding, the
        // others split by theirs (one such row turned the split off for the whole version).
        let unknown = all - byIOS.values.reduce(0, +)
        for (words, onlyOn, reaches) in [
            (URLRule.iOS16Only, "iOS 16", { (ios: IOSVersion) in ios < .rfc3986URLs }),
            (URLRule.iOS17Only, "iOS 17 and later", { (ios: IOSVersion) in ios >= .rfc3986URLs }),
        ] where findings.allSatisfy({ $0.message.contains(words) }) {
            let reached = byIOS.filter { IOSVersion($0.key).map(reaches) ?? true }.values.reduce(0, +) + unknown
            return (reached, unknown == 0 ? onlyOn : onlyOn + " or of an iOS not known")
        }
        return (all, nil)
    }

    /// `count` of `total` as a percentage for messages, rounded half up to one decimal, or to as
    /// many more (up to 12) as it takes to show how it compares with `threshold`, which the text
    /// beside it states: `1.004%` over `1%`, not `1.0%`. `0%` and `100%` only for none and all;
    /// `<0.1%` and `>99.9%` for a few devices and all but a few. Exact: whole numbers throughout.
    public static func percent(_ count: Int, of total: Int, against threshold: FleetThreshold? = nil) -> String {
        guard total > 0, count > 0 else { return "0%" }
        guard count < total else { return "100%" }
        var decimals = 1
        while true {
            let unit = FleetThreshold.power(decimals)
            // count * 100 * 10^decimals / total, rounded half up; below 100 * unit, as count < total.
            let (quotient, remainder) = total.dividingFullWidth(count.multipliedFullWidth(by: 100 * unit))
            let shown = remainder >= total - remainder ? quotient + 1 : quotient
            if let threshold, decimals < FleetThreshold.maxScale, !Self.settles(shown, decimals: decimals, threshold, as: threshold.compare(count, of: total)) {
                decimals += 1
                continue
            }
            if shown == 0 { return "<" + decimal(1, scale: decimals) + "%" }
            if shown == 100 * unit { return ">" + decimal(100 * unit - 1, scale: decimals) + "%" }
            return decimal(shown, scale: decimals) + "%"
        }
    }

    /// Whether the text `percent` writes for `shown` (a whole number of 10^-`decimals` percent)
    /// compares with `threshold` as the exact share does (`exact`, its `compare`): otherwise the
    /// text beside a verdict would contradict it (`1.0%` over `1%`), or leave it open. The
    /// bounds written for a few devices and for all but a few settle it only on their side:
    /// `<0.1%` is below a threshold of 0.1% or more, `>99.9%` above one of 99.9% or less (they
    /// were printed beside 0.05% and 99.95%).
    private static func settles(_ shown: Int, decimals: Int, _ threshold: FleetThreshold, as exact: Int) -> Bool {
        let all = 100 * FleetThreshold.power(decimals)
        if shown == 0 { return exact < 0 && threshold.compare(shown: 1, decimals: decimals) <= 0 }
        if shown == all { return exact > 0 && threshold.compare(shown: all - 1, decimals: decimals) >= 0 }
        return threshold.compare(shown: shown, decimals: decimals) == exact
    }

    /// `digits` / 10^`scale` as decimal text with `scale` digits after the point: `3.0`, `0.45`.
    static func decimal(_ digits: Int, scale: Int) -> String {
        guard scale > 0 else { return String(digits) }
        let unit = FleetThreshold.power(scale)
        let fraction = String(digits % unit)
        return "\(digits / unit)." + String(repeating: "0", count: scale - fraction.count) + fraction
    }

    /// `3.0% of devices (310 of 10,000)`, the percentage to as many decimals as show how it
    /// compares with `threshold`, when a verdict beside it names one.
    public func describe(_ count: Int, against threshold: FleetThreshold? = nil) -> String {
        "\(Self.percent(count, of: total, against: threshold)) of devices (\(ValueText.grouped(count)) of \(ValueText.grouped(total)))"
    }

    /// Findings about a fleet read for `schema`: a version the schema does not have
    /// (`fleet-unknown-version`, an error), devices on a retired version
    /// (`fleet-retired-version`, a warning: they drop what the schema no longer checks for
    /// them), and a live version the fleet has no row for (`fleet-missing-version`, a warning:
    /// it is counted as no devices, so its drops weigh nothing, and the old versions a new
    /// token registry misses are the ones that break). Each is placed at the version's first
    /// row by line and column (the file alone for a missing one), and, in a JSON or YAML file,
    /// by that row's JSON Pointer (`/4`, the fifth row); a CSV file's rows have none.
    /// - Parameter schema: The schema the fleet's versions belong to.
    /// - Returns: The findings; empty when the fleet counts every live version and only those.
    public func check(against schema: Schema) -> [Diagnostic] {
        let missing = schema.liveVersions.map(\.version).filter { devices[$0] == nil }.map { version in
            Diagnostic(
                code: DiagnosticCode.fleetMissingVersion, severity: .warning,
                message: "the fleet has no row for version \(version), a live version of \(schema.activity); it is counted as "
                    + "no devices, so what it drops weighs nothing (give it a row, with count 0 if none is left, or retire it)",
                file: file, position: nil, scope: .fleet, pointer: nil)
        }
        return devices.keys.sorted().compactMap { version in
            guard let found = schema.version(version) else {
                return Diagnostic(
                    code: DiagnosticCode.fleetUnknownVersion, severity: .error,
                    message: "the fleet counts devices on version \(version), which \(schema.activity) does not have "
                        + "(it has \(schema.versions.map { String($0.version) }.joined(separator: ", ")))",
                    file: file, position: positions[version], scope: .fleet, pointer: rowPointers[version])
            }
            guard let retired = found.retired, let count = devices[version], count > 0 else { return nil }
            return Diagnostic(
                code: DiagnosticCode.fleetRetiredVersion, severity: .warning,
                message: "the fleet counts \(describe(count)) on version \(version), which is \(retired.description); "
                    + "they count in the total, and nothing is checked for them any more but a body APNs refuses, which reaches none of them",
                file: file, position: positions[version], scope: .fleet, pointer: rowPointers[version])
        } + missing
    }
}

/// A percentage threshold, written `5%` or `5`: the most of the fleet a gate lets drop an update.
///
/// It holds the decimal as written, exactly, and compares counts of devices with it in whole
/// numbers: a share as a `Double`, with a tolerance, let 10,001 of 100,009,999 devices pass
/// `0.01%`, and put 11 of 1,000 under `1.1%`.
public struct FleetThreshold: Sendable, Hashable, CustomStringConvertible {
    /// The percentage is `digits` / 10^`scale` (`0.45` is 45 and 2), with no trailing zero in
    /// the fraction, so that equal thresholds are equal.
    private let digits: Int
    private let scale: Int

    /// The most digits after the point: a finer share of devices than 10^-12 % means nothing.
    static let maxScale = 12

    /// The share, from 0 to 1, nearest the decimal as written (`0.45%` is 0.0045): for JSON.
    /// Every verdict compares whole numbers (`isExceeded`, `isAbove`).
    public var share: Double { Double("\(percentText)e-2") ?? 0 }

    /// What a threshold is written as, for the message that refuses one.
    public static let form = "a percentage from 0 to 100 such as 1% or 0.5, with at most 12 decimals"

    /// Reads `5%`, `5`, `0.5%`, `.5`, `5.`; `nil` for anything else, outside 0…100, or with
    /// more than 12 digits after the point that are not zeros.
    public init?(_ text: String) {
        let number = text.hasSuffix("%") ? text.dropLast() : Substring(text)
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        var fraction = parts.count == 2 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty),
              (whole + fraction).utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        while fraction.hasSuffix("0") { fraction = fraction.dropLast() }
        let wholeDigits = whole.drop { $0 == "0" }
        guard fraction.count <= Self.maxScale, wholeDigits.count <= 3,
              let value = Int(wholeDigits.isEmpty ? "0" : String(wholeDigits)),
              let part = Int(fraction.isEmpty ? "0" : String(fraction)) else { return nil }
        scale = fraction.count
        digits = value * Self.power(scale) + part
        guard digits <= 100 * Self.power(scale) else { return nil }
    }

    /// 10^`exponent`, for exponents up to 18.
    static func power(_ exponent: Int) -> Int {
        (0..<exponent).reduce(1) { product, _ in product * 10 }
    }

    /// No drop at all: the gate when none is given (`--max-drop`, `max-drop=`).
    public static let noDrop = FleetThreshold("0")!

    /// The percentage as written, without the zeros that say nothing: `0.45`, `1`, `100`.
    var percentText: String {
        Fleet.decimal(digits, scale: scale)
    }

    /// `1%`, `0.5%`, `0.45%`: as written.
    public var description: String { percentText + "%" }

    /// Whether `count` of `total` devices is more than this share: what fails a `--max-drop` gate.
    public func isExceeded(by count: Int, of total: Int) -> Bool {
        compare(count, of: total) > 0
    }

    /// Whether `count` of `total` devices is less than this share: what `--suggest-retire` lists.
    public func isAbove(_ count: Int, of total: Int) -> Bool {
        compare(count, of: total) < 0
    }

    /// The sign of `count / total - digits / 10^scale / 100`, exactly (128-bit products):
    /// 0 for no devices at all.
    func compare(_ count: Int, of total: Int) -> Int {
        guard total > 0 else { return 0 }
        let share = UInt(count).multipliedFullWidth(by: UInt(100 * Self.power(scale)))
        let bound = UInt(total).multipliedFullWidth(by: UInt(digits))
        if share.high != bound.high { return share.high < bound.high ? -1 : 1 }
        return share.low == bound.low ? 0 : share.low < bound.low ? -1 : 1
    }

    /// How `percent` (the `decimals`-digit text `Fleet.percent` shows, as a whole number of
    /// 10^-`decimals` percent) compares with this threshold: -1 below, 0 equal, 1 above.
    func compare(shown percent: Int, decimals: Int) -> Int {
        // percent / 10^decimals against digits / 10^scale.
        let left = percent.multipliedFullWidth(by: Self.power(scale))
        let right = digits.multipliedFullWidth(by: Self.power(decimals))
        return left == right ? 0 : (left.high, left.low) < (right.high, right.low) ? -1 : 1
    }

    /// How a caller's users give the threshold, for the messages that name it.
    public enum Spelling: Sendable, Hashable {
        /// A command-line option: `--max-drop 5%`.
        case option
        /// The sidecar's query parameter: `max-drop=5%`.
        case queryParameter
    }

    /// The threshold as the caller's users give it: `--max-drop 5%` or `max-drop=5%`.
    /// - Parameter spelling: The caller's spelling.
    public func spelled(_ spelling: Spelling) -> String {
        switch spelling {
        case .option: "--max-drop \(self)"
        case .queryParameter: "max-drop=\(self)"
        }
    }
}

// The diagnostic codes of fleet files.
extension DiagnosticCode {
    /// The file cannot be read (error).
    public static let fleetIO = DiagnosticCode(rawValue: "fleet-io")
    /// The file is not CSV, JSON or YAML of the expected shape, such as a CSV row with a cell
    /// past the header's columns (error).
    public static let fleetSyntax = DiagnosticCode(rawValue: "fleet-syntax")
    /// The file has no rows, or counts no device (error).
    public static let fleetEmpty = DiagnosticCode(rawValue: "fleet-empty")
    /// A column the table needs (`version`, `count`) is missing (error).
    public static let fleetMissingColumn = DiagnosticCode(rawValue: "fleet-missing-column")
    /// A column appears twice in the header (error).
    public static let fleetDuplicateColumn = DiagnosticCode(rawValue: "fleet-duplicate-column")
    /// A count that is not a whole number of zero or more (error).
    public static let fleetInvalidCount = DiagnosticCode(rawValue: "fleet-invalid-count")
    /// A version that is not a positive whole number (error).
    public static let fleetInvalidVersion = DiagnosticCode(rawValue: "fleet-invalid-version")
    /// An `ios` cell that is no iOS release (error): `16.4`, `17`, `17.0.1` and `iOS 16.4` are.
    public static let fleetInvalidIOS = DiagnosticCode(rawValue: "fleet-invalid-ios")
    /// A version the schema does not have (error).
    public static let fleetUnknownVersion = DiagnosticCode(rawValue: "fleet-unknown-version")
    /// Devices on a retired version (warning).
    public static let fleetRetiredVersion = DiagnosticCode(rawValue: "fleet-retired-version")
    /// No row for a live version of the schema: counted as no devices (warning).
    public static let fleetMissingVersion = DiagnosticCode(rawValue: "fleet-missing-version")
    /// Two files of a fleet folder give the fleet of one schema: `delivery.csv` and
    /// `delivery.yaml` (error).
    public static let fleetDuplicateSchema = DiagnosticCode(rawValue: "fleet-duplicate-schema")
    /// A fleet file of a folder named for a schema that is not loaded: `nosuch.csv` (error).
    public static let fleetUnknownSchema = DiagnosticCode(rawValue: "fleet-unknown-schema")

    /// Every code this version names.
    package static let fleetCodes: [DiagnosticCode] = [
        .fleetIO,
        .fleetSyntax,
        .fleetEmpty,
        .fleetMissingColumn,
        .fleetDuplicateColumn,
        .fleetInvalidCount,
        .fleetInvalidVersion,
        .fleetInvalidIOS,
        .fleetUnknownVersion,
        .fleetRetiredVersion,
        .fleetMissingVersion,
        .fleetDuplicateSchema,
        .fleetUnknownSchema,
    ]
}

extension Fleet {
    /// One row of a fleet table as read: each cell's text and where it is.
    public struct Row: Sendable {
        /// The cells by column name, each with its JSON Pointer in a JSON or YAML file.
        public var cells: [String: (text: String, position: SourcePosition, pointer: String?)]
        /// Where the row starts.
        public var position: SourcePosition
        /// The row's JSON Pointer in a JSON or YAML file (`/0` for the first); `nil` in CSV.
        public var pointer: String?

        /// Creates a row.
        public init(cells: [String: (text: String, position: SourcePosition, pointer: String?)] = [:], position: SourcePosition, pointer: String? = nil) {
            self.cells = cells
            self.position = position
            self.pointer = pointer
        }
    }

    /// The columns a fleet table may have; others are ignored.
    package static let columns = ["version", "count", "app-version", "ios"]

    /// UTF-8's byte order mark, which a fleet file of any format may begin with.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The code of a problem with a cell of `column`: what a value that is no number or string
    /// there is reported as.
    package static func code(ofColumn column: String) -> DiagnosticCode {
        switch column {
        case "version": .fleetInvalidVersion
        case "count": .fleetInvalidCount
        case "ios": .fleetInvalidIOS
        default: .fleetSyntax
        }
    }

    /// The most devices one version may count: more than there are devices.
    public static let maxDevicesPerVersion = Int(Int32.max) * 1000

    /// A column's name as every format reads it: spaces around it and case do not count
    /// (`Count `, ` ios`).
    public static func columnName(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Builds a fleet from rows read from any format: the one place the table's rules are
    /// checked (versions positive whole numbers, counts whole numbers of zero or more, at least
    /// one device).
    /// - Parameters:
    ///   - rows: The rows.
    ///   - file: The file, for diagnostics.
    ///   - start: Where the table starts, for a finding about the whole file.
    /// - Returns: The fleet, or `nil`, and every problem found.
    public static func build(rows: [Row], file: String?, start: SourcePosition) -> (Fleet?, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        func report(_ code: DiagnosticCode, _ message: String, at position: SourcePosition, pointer: String? = nil) {
            diagnostics.append(Diagnostic(code: code, severity: .error, message: message, file: file,
                                          position: position, scope: .fleet, pointer: pointer))
        }
        var fleet = Fleet(devices: [:], file: file)
        for row in rows {
            guard let versionCell = row.cells["version"] else {
                report(.fleetMissingColumn, "this row has no version", at: row.position, pointer: row.pointer)
                continue
            }
            guard let countCell = row.cells["count"] else {
                report(.fleetMissingColumn, "this row has no count", at: row.position, pointer: row.pointer)
                continue
            }
            guard let version = wholeNumber(versionCell.text), version > 0 else {
                report(.fleetInvalidVersion, "version '\(versionCell.text)' is not a schema version (a whole number from 1)", at: versionCell.position,
                       pointer: versionCell.pointer)
                continue
            }
            let limit = ValueText.grouped(maxDevicesPerVersion)
            guard let count = wholeNumber(countCell.text) else {
                let digits = countCell.text.trimmingCharacters(in: .whitespaces)
                let message = !digits.isEmpty && digits.utf8.allSatisfy({ (0x30...0x39).contains($0) })
                    ? "count '\(ValueText.clipped(countCell.text))' is more devices than a version may count (at most \(limit))"
                    : "count '\(ValueText.clipped(countCell.text))' is not a number of devices (a whole number, 0 or more)"
                report(.fleetInvalidCount, message, at: countCell.position, pointer: countCell.pointer)
                continue
            }
            let (sum, overflow) = (fleet.devices[version] ?? 0).addingReportingOverflow(count)
            guard !overflow, sum <= maxDevicesPerVersion else {
                report(.fleetInvalidCount, "count '\(ValueText.clipped(countCell.text))' makes version \(version) count more devices "
                    + "than a version may (at most \(limit), added up over its rows)", at: countCell.position, pointer: countCell.pointer)
                continue
            }
            fleet.devices[version] = sum
            if fleet.positions[version] == nil {
                fleet.positions[version] = row.position
                fleet.rowPointers[version] = row.pointer
            }
            // An empty cell, or a null one (JSON's `null`, YAML's `~`), is an iOS not known.
            if let cell = row.cells["ios"], !["", "null", "~"].contains(cell.text.trimmingCharacters(in: .whitespaces)) {
                // Read, not kept as text: a cell the split cannot read counted every device of
                // its version as reached, while the finding named one iOS.
                guard let ios = Self.iOSRelease(cell.text) else {
                    report(.fleetInvalidIOS, "ios '\(ValueText.clipped(cell.text))' is not an iOS release: write it as 16.4, 17 or 17.0.1 "
                        + "(iOS 16.4 is read too), or leave the cell empty when it is not known", at: cell.position, pointer: cell.pointer)
                    continue
                }
                fleet.devicesByIOS[version, default: [:]][ios.description, default: 0] += count
            }
        }
        if diagnostics.isEmpty, fleet.total == 0 {
            report(.fleetEmpty, rows.isEmpty ? "the fleet file has no rows" : "the fleet file counts no device", at: start)
        }
        return (diagnostics.isEmpty ? fleet : nil, diagnostics)
    }

    /// An `ios` cell's release: `16.4`, `17`, `17.0.1`, with an `iOS` before it or not, as
    /// analytics exports write it (`iOS 16.4`); `nil` for anything else.
    static func iOSRelease(_ text: String) -> IOSVersion? {
        var release = Substring(text.trimmingCharacters(in: .whitespaces))
        if release.lowercased().hasPrefix("ios") { release = release.dropFirst(3).drop { $0 == " " } }
        return IOSVersion(String(release))
    }

    /// A cell of plain digits (spaces around them allowed) as a number; `nil` for a sign, a
    /// fraction, an exponent or a number past `maxDevicesPerVersion`.
    static func wholeNumber(_ text: String) -> Int? {
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(digits),
              number <= maxDevicesPerVersion else { return nil }
        return number
    }

    /// Reads a CSV fleet table: a header naming the columns, then one row per line. Cells may be
    /// quoted (`"2,150"` is not a number, though: counts are plain digits).
    /// - Parameters:
    ///   - text: The file's text.
    ///   - file: The file, for diagnostics.
    /// - Returns: The fleet, or `nil`, and every problem found, each with its line and column.
    public static func parse(csv text: String, file: String?) -> (Fleet?, [Diagnostic]) {
        let start = SourcePosition(offset: 0, line: 1, column: 1)
        func failure(_ code: DiagnosticCode, _ message: String, at position: SourcePosition) -> (Fleet?, [Diagnostic]) {
            (nil, [Diagnostic(code: code, severity: .error, message: message, file: file, position: position, scope: .fleet, pointer: nil)])
        }
        // Each line's cells, read once.
        var lines: [(number: Int, offset: Int, cells: [(text: String, start: Int)])] = []
        // A byte order mark, as spreadsheets write before UTF-8 CSV, is not the first column's.
        var offset = text.utf8.starts(with: byteOrderMark) ? byteOrderMark.count : 0
        // By bytes: "\r\n" is one Character, which a split on "\n" would not see.
        for (index, bytes) in text.utf8.dropFirst(offset).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let line = Substring(bytes)
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            let content = trimmed.trimmingCharacters(in: .whitespaces)
            if !content.isEmpty, !content.hasPrefix("#") {
                let (cells, problem) = scan(trimmed)
                if let problem {
                    return failure(.fleetSyntax, problem.message,
                                   at: SourcePosition(offset: offset + problem.offset, line: index + 1, column: problem.offset + 1))
                }
                lines.append((index + 1, offset, cells))
            }
            offset += bytes.count + 1
        }
        guard let header = lines.first else {
            return failure(.fleetEmpty, "the fleet file is empty; it needs a header (version,count) and a row per schema version", at: start)
        }
        var names: [String] = []
        var seen: Set<String> = []
        for cell in header.cells {
            let name = columnName(cell.text)
            let position = SourcePosition(offset: header.offset + cell.start, line: header.number, column: cell.start + 1)
            guard seen.insert(name).inserted else {
                return failure(.fleetDuplicateColumn, "the header names column '\(name)' twice", at: position)
            }
            names.append(name)
        }
        for required in ["version", "count"] where !seen.contains(required) {
            let found = names.prefix(8).joined(separator: ", ") + (names.count > 8 ? ", …" : "")
            return failure(.fleetMissingColumn, "the header has no '\(required)' column (found: \(found)); it needs version,count",
                           at: SourcePosition(offset: header.offset, line: header.number, column: 1))
        }
        var rows: [Row] = []
        var extraCells: [Diagnostic] = []
        for line in lines.dropFirst() {
            var row = Row(cells: [:], position: SourcePosition(offset: line.offset, line: line.number, column: 1))
            let lineCells = line.cells
            for (index, cell) in lineCells.enumerated() {
                let position = SourcePosition(offset: line.offset + cell.start, line: line.number, column: cell.start + 1)
                guard index < names.count else {
                    // A cell past the header's columns belongs to none, and may be part of
                    // another (`1,2,150`, a count with a thousands separator, would count 2):
                    // refused, as a row without a column it needs is. Empty ones, which
                    // spreadsheets write after the last column, say nothing.
                    if extraCells.last?.position?.line != line.number, !cell.text.trimmingCharacters(in: .whitespaces).isEmpty {
                        let shown = ValueText.clipped(cell.text)
                        let hint = wholeNumber(cell.text) == nil ? "" : "; a count is plain digits, without a thousands separator"
                        extraCells.append(Diagnostic(
                            code: DiagnosticCode.fleetSyntax, severity: .error,
                            message: "this row has \(lineCells.count) cells and the header \(names.count) columns: '\(shown)' is under none\(hint)",
                            file: file, position: position, scope: .fleet, pointer: nil))
                    }
                    continue
                }
                let name = names[index]
                guard columns.contains(name) else { continue }
                row.cells[name] = (cell.text, position, nil)
            }
            rows.append(row)
        }
        let (fleet, problems) = build(rows: rows, file: file, start: start)
        guard !extraCells.isEmpty else { return (fleet, problems) }
        // In the file's order: a row's extra cells beside its other problems.
        let all = (extraCells + problems).sorted { ($0.position?.offset ?? 0) < ($1.position?.offset ?? 0) }
        return (nil, all)
    }

    /// The cells of one CSV line, unquoted, each with the byte it starts at.
    static func cells(of line: Substring) -> [(text: String, start: Int)] {
        scan(line).cells
    }

    /// The cells of one CSV line, and the first quote out of place, with why (RFC 4180: a
    /// quoted cell is quoted whole, a quote inside it doubled):
    /// - a quote the line leaves open: the cell would run on into the next line, which a fleet
    ///   file's rows do not;
    /// - text after a cell's closing quote (`"5"5`), or a quote inside a cell that does not
    ///   start with one (`5"5"`): read as they came, both counted 55.
    /// Spaces around a quoted cell are allowed.
    static func scan(_ line: Substring) -> (cells: [(text: String, start: Int)], problem: (offset: Int, message: String)?) {
        var cells: [(text: String, start: Int)] = []
        var current = ""
        var start = 0
        var quoted = false
        var opened = 0
        // Whether the cell's quoted stretch has closed: only a doubled quote (`"5""5"` is
        // `5"5`), spaces or the next comma may follow.
        var closed = false
        var closedAt = 0
        var offset = 0
        for character in line {
            defer { offset += character.utf8.count }
            if quoted {
                if character == "\"" {
                    quoted = false
                    closed = true
                    closedAt = offset
                } else {
                    current.append(character)
                }
                continue
            }
            switch character {
            case ",":
                cells.append((current, start))
                current = ""
                start = offset + 1
                closed = false
            case "\"":
                if closed, closedAt == offset - 1 {
                    current.append("\"")
                    quoted = true
                } else if !closed, current.allSatisfy({ $0 == " " || $0 == "\t" }) {
                    current = ""
                    quoted = true
                    opened = offset
                } else {
                    return (cells, (offset, "a quote inside a cell that does not start with one; quote the whole cell, a quote in it doubled"))
                }
            case " ", "\t":
                if !closed { current.append(character) }
            default:
                if closed {
                    return (cells, (offset, "text after the cell's closing quote; a quoted cell ends at its quote"))
                }
                current.append(character)
            }
        }
        if quoted {
            return (cells, (opened, "the quote that starts here is not closed on its line; a cell is on one line"))
        }
        cells.append((current, start))
        return (cells, nil)
    }

    /// Reads a JSON fleet table: an array of objects with the columns as keys, numbers or
    /// strings as values.
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - file: The file, for diagnostics.
    /// - Returns: The fleet, or `nil`, and every problem found, each with its line and column.
    public static func parse(json bytes: some ContiguousBytes, file: String?) -> (Fleet?, [Diagnostic]) {
        // A byte order mark, as some editors and exports write before UTF-8, is read past, as
        // in a CSV or YAML fleet file (it was refused); positions are counted after it. Only a
        // file that has one is copied without it.
        if let rest = bytes.withUnsafeBytes({ $0.starts(with: byteOrderMark) ? Array($0.dropFirst(byteOrderMark.count)) : nil }) {
            return parse(json: rest, file: file)
        }
        let start = SourcePosition(offset: 0, line: 1, column: 1)
        func failure(_ code: DiagnosticCode, _ message: String, at position: SourcePosition?, pointer: String? = nil) -> (Fleet?, [Diagnostic]) {
            (nil, [Diagnostic(code: code, severity: .error, message: message, file: file, position: position, scope: .fleet, pointer: pointer)])
        }
        // The loader bounds the file, as it bounds a CSV or YAML one; the scanner's own limit,
        // 1 MiB, is a payload's.
        let options = JSONScanOptions(maxInputBytes: .max)
        do throws(JSONError) {
            return try JSONReader.reading(bytes, options: options) { (reader) throws(JSONError) in
                guard !reader.isAtEnd else {
                    return failure(DiagnosticCode.fleetEmpty, "the fleet file is empty; it needs an array of rows, one per schema version", at: start)
                }
                // Positions counted on from the last row's, not from the start for each row.
                var locator = SourcePosition.Locator()
                func position(_ offset: Int) -> SourcePosition { reader.position(of: offset, counting: &locator) }
                guard try reader.peek() == .arrayStart else {
                    return failure(DiagnosticCode.fleetSyntax, "a JSON fleet file is an array of rows: [{\"version\": 1, \"count\": 310}, …]",
                                   at: position(reader.offset))
                }
                var rows: [Row] = []
                try reader.beginArray()
                while try reader.nextElement() {
                    let token = try reader.peek()
                    let rowPosition = position(reader.offset)
                    let rowPointer = "/\(rows.count)"
                    guard token == .objectStart else {
                        return failure(DiagnosticCode.fleetSyntax, "each row of a JSON fleet file is an object", at: rowPosition, pointer: rowPointer)
                    }
                    var row = Row(position: rowPosition, pointer: rowPointer)
                    var keys: Set<String> = []
                    try reader.beginObject()
                    while let key = try reader.nextKey() {
                        let written = reader.string(key)
                        let name = columnName(written)
                        let pointer = JSONPointer.appending(written, to: rowPointer)
                        guard keys.insert(name).inserted else {
                            return failure(DiagnosticCode.fleetDuplicateColumn, "the row names '\(name)' twice", at: position(key.start - 1), pointer: pointer)
                        }
                        let token = try reader.peek()
                        let position = position(reader.offset)
                        let text: String
                        switch token {
                        case .string: text = reader.string(try reader.readString())
                        case .number: text = reader.string(try reader.readNumber())
                        case .true, .false, .null:
                            // Named as written: "count 'null' is not a number of devices".
                            try reader.skipValue()
                            text = token == .null ? "null" : token == .true ? "true" : "false"
                        case .objectStart, .arrayStart:
                            guard !columns.contains(name) else {
                                return failure(Self.code(ofColumn: name), "'\(name)' must be a number or a string, not \(token == .objectStart ? "an object" : "an array")",
                                               at: position, pointer: pointer)
                            }
                            try reader.skipValue()
                            continue
                        }
                        if columns.contains(name) { row.cells[name] = (text, position, pointer) }
                    }
                    rows.append(row)
                }
                try reader.finish()
                return build(rows: rows, file: file, start: start)
            }
        } catch {
            return failure(DiagnosticCode.fleetSyntax, error.message, at: error.position)
        }
    }
}
