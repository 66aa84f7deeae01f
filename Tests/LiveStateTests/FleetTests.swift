import Foundation
import Testing
@testable import LiveState
@testable import LiveStateTooling

@Suite struct FleetFileTests {
    static let csv = """
        # devices by schema version
        version,app-version,ios,count
        1,1.4.2,16.7,180
        1,1.4.2,17.5,130
        2,2.0.1,17.5,2150
        3,2.3.0,18.1,7540
        """

    @Test func rowsOfOneVersionAddUp() throws {
        let (fleet, problems) = Fleet.parse(csv: Self.csv, file: "fleet.csv")
        #expect(problems.isEmpty)
        let parsed = try #require(fleet)
        #expect(parsed.devices == [1: 310, 2: 2150, 3: 7540])
        #expect(parsed.total == 10_000)
        #expect(parsed.devicesByIOS[1] == ["16.7": 180, "17.5": 130])
        #expect(parsed.describe(310) == "3.1% of devices (310 of 10,000)")
        #expect(parsed.positions[2]?.line == 5)
    }

    @Test func csvJsonAndQuotedCellsReadTheSame() throws {
        let json = #"[{"version": 1, "count": 310}, {"version": "2", "count": 2150, "ios": "17.5"}, {"version": 3, "count": 7540}]"#
        let quoted = "\"version\",\"count\"\r\n1,310\r\n\"2\",2150\r\n3,\"7540\"\r\n"
        #expect(Fleet.parse(json: Array(json.utf8), file: nil).0?.devices == [1: 310, 2: 2150, 3: 7540])
        #expect(Fleet.parse(csv: quoted, file: nil).0?.devices == [1: 310, 2: 2150, 3: 7540])
        #expect(Fleet.parse(csv: "count,version,notes\n5,1,\"a, b\"\n", file: nil).0?.devices == [1: 5])
        #expect(Fleet.cells(of: #""5""5",x"#).map(\.text) == [#"5"5"#, "x"])
        #expect(Fleet.cells(of: #""","""""#).map(\.text) == ["", #"""#])
        // Three quotes open a cell, quote a quote and leave it open (RFC 4180).
        #expect(Fleet.scan(#""",""""#).problem?.message.contains("not closed") == true)
    }

    /// A spreadsheet's UTF-8 CSV starts with a byte order mark: it is not part of the first
    /// column's name, and positions after it are the file's bytes.
    @Test func aByteOrderMarkIsNotTheFirstColumns() throws {
        #expect(Fleet.parse(csv: "\u{FEFF}version,count\r\n1,100\r\n3,100\r\n", file: nil).0?.devices == [1: 100, 3: 100])
        let (fleet, problems) = Fleet.parse(csv: "\u{FEFF}version,count\n1,x\n", file: nil)
        #expect(fleet == nil)
        #expect(problems.first?.position == SourcePosition(offset: 19, line: 2, column: 3))
    }

    /// Every fleet code, with the line and column it points at.
    @Test(arguments: [
        ("", "fleet-empty", 1, 1),
        ("# only a comment\n", "fleet-empty", 1, 1),
        ("version,count\n", "fleet-empty", 1, 1),
        ("version,count\n1,0\n", "fleet-empty", 1, 1),
        ("version,count,version\n1,2,3\n", "fleet-duplicate-column", 1, 15),
        ("version,devices\n1,2\n", "fleet-missing-column", 1, 1),
        ("version,count\n1,-3\n", "fleet-invalid-count", 2, 3),
        ("version,count\n1,2.5\n", "fleet-invalid-count", 2, 3),
        ("version,count\n1,\"2,150\"\n", "fleet-invalid-count", 2, 3),
        ("version,count\n1,99999999999999999999\n", "fleet-invalid-count", 2, 3),
        ("version,count\n1\n", "fleet-missing-column", 2, 1),
        ("version,count\n0,5\n", "fleet-invalid-version", 2, 1),
        ("version,count\nv2,5\n", "fleet-invalid-version", 2, 1),
        ("version,ios,count\n1,iPadOS 17,5\n", "fleet-invalid-ios", 2, 3),
        ("version,ios,count\n1,16.x,5\n", "fleet-invalid-ios", 2, 3),
        ("version,count\n3,10,extra\n", "fleet-syntax", 2, 6),
        ("version,count\n1,2,150\n", "fleet-syntax", 2, 5),
        // RFC 4180: a doubled quote is one quote of the cell, so this count is `5"5`, not 55.
        ("version,count\n1,\"5\"\"5\"\n", "fleet-invalid-count", 2, 3),
    ])
    func badCSVGetsItsCodeAndPosition(_ text: String, _ code: String, _ line: Int, _ column: Int) throws {
        let (fleet, problems) = Fleet.parse(csv: text, file: "f.csv")
        #expect(fleet == nil)
        let problem = try #require(problems.first)
        #expect(problem.code.rawValue == code, "\(problem)")
        #expect(problem.position?.line == line)
        #expect(problem.position?.column == column)
        #expect(problem.severity == .error)
        #expect(problem.file == "f.csv")
    }

    @Test(arguments: [
        ("{\"version\": 1}", "fleet-syntax", 1, 1),
        ("[1]", "fleet-syntax", 1, 2),
        ("[{\"version\": 1, \"count\": 3}", "fleet-syntax", 1, 28),
        ("[{\"version\": 1, \"count\": \"x\"}]", "fleet-invalid-count", 1, 26),
        ("[{\"version\": 1, \"count\": [3]}]", "fleet-invalid-count", 1, 26),
        ("[]", "fleet-empty", 1, 1),
        // A key twice is refused, as the YAML reader refuses it: which count is meant is unknown.
        ("[{\"version\": 1, \"count\": 3, \"count\": 5}]", "fleet-duplicate-column", 1, 29),
    ])
    func badJSONGetsItsCodeAndPosition(_ text: String, _ code: String, _ line: Int, _ column: Int) throws {
        let (fleet, problems) = Fleet.parse(json: Array(text.utf8), file: "f.json")
        #expect(fleet == nil)
        let problem = try #require(problems.first)
        #expect(problem.code.rawValue == code, "\(problem)")
        #expect(problem.position?.line == line)
        #expect(problem.position?.column == column)
    }

    /// A cell past the header's columns is refused, where it is, with the row's other
    /// problems; empty ones after the last column, as spreadsheets write them, are not.
    @Test func aCellUnderNoColumnIsRefused() throws {
        let (fleet, problems) = Fleet.parse(csv: "version,count\n3,10,extra\n1,2,150\n", file: "f.csv")
        #expect(fleet == nil)
        #expect(problems.map(\.description) == [
            "f.csv:2:6: error: this row has 3 cells and the header 2 columns: 'extra' is under none [fleet-syntax]",
            "f.csv:3:5: error: this row has 3 cells and the header 2 columns: '150' is under none; a count is plain digits, without a thousands separator [fleet-syntax]",
        ])
        #expect(Fleet.parse(csv: "version,count\n1,5,,\n", file: nil).0?.devices == [1: 5])
    }

    @Test func versionsTheSchemaLacksAreReportedWhereTheyAre() throws {
        let fleet = try #require(Fleet.parse(csv: "version,count\n1,5\n7,3\n", file: "f.csv").0)
        let problems = fleet.check(against: scoreSchema)
        // And version 2, which the fleet has no row for, is said to count as no devices.
        #expect(problems.map(\.code) == ["fleet-unknown-version", "fleet-missing-version"])
        #expect(problems.last?.message.contains("no row for version 2") == true)
        #expect(problems.last?.severity == .warning)
        #expect(problems.first?.position?.line == 3)
        #expect(problems.first?.message.contains("version 7, which score does not have (it has 1, 2)") == true)
        // By line and column: "/7" would name no row of a CSV file.
        #expect(problems.first?.description == "f.csv:3:1: error: the fleet counts devices on version 7, which score does not have (it has 1, 2) [fleet-unknown-version]")
    }

    @Test func thresholdsReadAsPercentages() {
        #expect(FleetThreshold("5%")?.share == 0.05)
        #expect(FleetThreshold("5")?.share == 0.05)
        #expect(FleetThreshold("0.5%")?.description == "0.5%")
        #expect(FleetThreshold("0%")?.isExceeded(by: 0, of: 10) == false)
        #expect(FleetThreshold("0%")?.isExceeded(by: 1, of: 10_000) == true)
        for bad in ["", "%", "-1", "101", "100.01", "five", "1e2", "5%%", ".", "1.2.3", "0.0000000000001"] {
            #expect(FleetThreshold(bad) == nil, "\(bad)")
        }
        // As written, without the zeros that say nothing, and equal when they are.
        #expect(FleetThreshold("0.45")?.description == "0.45%")
        #expect(FleetThreshold("00.4500%")?.description == "0.45%")
        #expect(FleetThreshold("0.45") == FleetThreshold("0.450"))
        #expect(FleetThreshold(".5")?.description == "0.5%")
        #expect(FleetThreshold("5.")?.description == "5%")
        #expect(FleetThreshold("100%")?.description == "100%")
        #expect(FleetThreshold("0.45")?.share == 0.0045)
        #expect(Fleet.percent(0, of: 10) == "0%")
        #expect(Fleet.percent(1, of: 10_000) == "<0.1%")
        #expect(Fleet.percent(314, of: 10_000) == "3.1%")
    }

    /// The gate and `--suggest-retire` compare whole counts with the decimal as written: a
    /// share as a `Double`, with a tolerance of 1e-12, passed 10,001 of 100,009,999 at 0.01%.
    @Test func thresholdsCompareCountsExactly() throws {
        let hundredth = try #require(FleetThreshold("0.01"))
        #expect(hundredth.isExceeded(by: 10_001, of: 100_009_999))
        #expect(!hundredth.isExceeded(by: 10_001, of: 100_010_000))
        #expect(hundredth.isExceeded(by: 10_002, of: 100_010_000))
        #expect(FleetThreshold.noDrop.isExceeded(by: 1, of: 1_000_000_000_001))
        // At the share exactly: neither over (the gate passes) nor under (not retired).
        let retire = try #require(FleetThreshold("1.1"))
        #expect(!retire.isExceeded(by: 11, of: 1_000))
        #expect(!retire.isAbove(11, of: 1_000))
        #expect(retire.isAbove(10, of: 1_000))
        for text in ["0.07", "0.14", "0.45", "0.9", "1.3", "2.2", "3.1"] {
            let threshold = try #require(FleetThreshold(text))
            let count = Int(try #require(Double(text)) * 100_000 + 0.5)
            #expect(!threshold.isExceeded(by: count, of: 10_000_000) && !threshold.isAbove(count, of: 10_000_000), "\(text)")
        }
        // Counts past 2^63 / 10^14 multiply in 128 bits.
        let big = Int(Int32.max) * 1000 * 4_000
        #expect(FleetThreshold("50")!.isExceeded(by: big / 2 + 1, of: big))
        #expect(!FleetThreshold("50")!.isExceeded(by: big / 2, of: big))
    }

    /// A share is shown to as many decimals as it takes to agree with the threshold beside it,
    /// rounded half up on whole numbers, and never as none or all when it is not.
    @Test func percentagesAgreeWithTheVerdict() throws {
        #expect(Fleet.percent(1_004, of: 100_000) == "1.0%")
        #expect(Fleet.percent(1_004, of: 100_000, against: FleetThreshold("1")) == "1.004%")
        #expect(Fleet.percent(2, of: 10_000, against: FleetThreshold("0.01")) == "0.02%")
        #expect(Fleet.percent(1, of: 1_000_000_000_001, against: .noDrop) == "0.0000000001%")
        #expect(Fleet.percent(1_000, of: 100_000, against: FleetThreshold("1")) == "1.0%")
        #expect(Fleet.percent(9_996, of: 10_000) == ">99.9%")
        #expect(Fleet.percent(10_000, of: 10_000) == "100%")
        // The bounds for a few devices and for all but a few stand beside a threshold only when
        // they settle it (they were printed beside 0.05% and 99.95%).
        #expect(Fleet.percent(4, of: 10_000, against: FleetThreshold("0.05")) == "0.04%")
        #expect(Fleet.percent(4, of: 10_000, against: FleetThreshold("5")) == "<0.1%")
        #expect(Fleet.percent(9_997, of: 10_000, against: FleetThreshold("99.95")) == "99.97%")
        #expect(Fleet.percent(9_997, of: 10_000, against: FleetThreshold("50")) == ">99.9%")
        // Ties round up: 0.05%, 0.15% and 0.25% (binary `%.1f` made them 0.1%, 0.1%, 0.2%).
        #expect(Fleet.percent(1, of: 2_000) == "0.1%")
        #expect(Fleet.percent(3, of: 2_000) == "0.2%")
        #expect(Fleet.percent(5, of: 2_000) == "0.3%")
    }

    /// The CSV reader refuses a quote out of place, and reads what RFC 4180 allows.
    @Test func quotesOutOfPlaceAreRefused() {
        for (text, column, words) in [
            ("version,count\n1,\"5\"5\n", 6, "after the cell's closing quote"),
            ("version,count\n1,5\"5\"\n", 4, "a quote inside a cell"),
            ("version,count\n1,\"5\n", 3, "not closed on its line"),
        ] {
            let (fleet, problems) = Fleet.parse(csv: text, file: "f.csv")
            #expect(fleet == nil, "\(text)")
            #expect(problems.map(\.code) == ["fleet-syntax"], "\(text)")
            #expect(problems.first?.position?.line == 2 && problems.first?.position?.column == column, "\(text)")
            #expect(problems.first?.message.contains(words) == true, "\(text): \(problems)")
        }
        let (fleet, problems) = Fleet.parse(csv: "  # a note\n\"version\" , \" Count\"\n \"1\" ,  \"310\"  \n", file: "f.csv")
        #expect(problems.isEmpty, "\(problems)")
        #expect(fleet?.devices == [1: 310])
        let (_, doubled) = Fleet.parse(csv: "version,count\n1,\"5\"\"5\"\n", file: "f.csv")
        #expect(doubled.first?.message.contains("count '5\"5'") == true, "\(doubled)")
    }

    /// JSON rows: column names as CSV reads them, an empty file as empty, and positions
    /// counted on, not from the start for each row (a 4 MiB file took 27 seconds).
    @Test func jsonFleetFiles() throws {
        let (fleet, problems) = Fleet.parse(json: Array(#"[{"Version ": 1, " count": 3}]"#.utf8), file: "f.json")
        #expect(problems.isEmpty && fleet?.devices == [1: 3], "\(problems)")
        let (_, duplicate) = Fleet.parse(json: Array(#"[{"version": 1, "count": 1, "count ": 5}]"#.utf8), file: "f.json")
        #expect(duplicate.map(\.code) == ["fleet-duplicate-column"])
        let (_, empty) = Fleet.parse(json: Array(" \n".utf8), file: "f.json")
        #expect(empty.map(\.code) == ["fleet-empty"])
        let rows = (0..<100_000).map { #"{"version": 1, "count": \#($0 % 7)}"# }
        let text = "[\n" + rows.joined(separator: ",\n") + ",\n{\"version\": 0, \"count\": 1}]"
        let clock = ContinuousClock()
        var bad: [Diagnostic] = []
        let elapsed = clock.measure { bad = Fleet.parse(json: Array(text.utf8), file: "f.json").1 }
        #expect(bad.first?.position?.line == 100_002, "\(bad)")
        // Linear: about 0.1 s; quadratic was minutes.
        #expect(elapsed < .seconds(20))
    }

    @Test func countsPastTheLimitSaySo() {
        let (_, problems) = Fleet.parse(csv: "version,count\n1,99999999999999999999\n2,2147483647000\n2,1\n", file: "f.csv")
        #expect(problems.map(\.message) == [
            "count '99999999999999999999' is more devices than a version may count (at most 2,147,483,647,000)",
            "count '1' makes version 2 count more devices than a version may (at most 2,147,483,647,000, added up over its rows)",
        ])
    }
}

@Suite struct FleetImpactTests {
    static let fleet = Fleet(devices: [1: 300, 2: 9_700])

    static func lintAllVersions(_ state: String, fleet: Fleet = fleet, maxDrop: String, timestamp: String = "1795000000")
        -> (diagnostics: [Diagnostic], impact: FleetImpact) {
        let bytes = Array(body(#""timestamp":"# + timestamp + #","event":"update","content-state":"# + state).utf8)
        let all = PayloadValidator.validateAllVersions(scoreSchema, bytes, file: "p.json", fleet: fleet)
        return PayloadValidator.weigh(all, by: fleet, maxDrop: FleetThreshold(maxDrop)!)
    }

    @Test func aDropOverTheThresholdStaysAnError() throws {
        // Version 1 (strict, 3% of devices) misses 'score'.
        let (diagnostics, impact) = Self.lintAllVersions(#"{"scoreA":1}"#, maxDrop: "1%")
        #expect(impact.droppingVersions == [1])
        #expect(impact.dropping == 300)
        #expect(!impact.accepted)
        let dropped = try #require(diagnostics.first { $0.code == "dropped-by-version" })
        #expect(dropped.severity == .error)
        #expect(dropped.message == "app version 1: the app drops this update for 3.0% of devices (300 of 10,000); first error: missing-required-key at /score in the content-state")
        #expect(impact.sentence(losing: "this update")
            == "3.0% of devices (300 of 10,000) would lose this update (app version 1); 0% (0) would fall back to defaults; over --max-drop 1%")
    }

    @Test func aDropWithinTheThresholdIsAcceptedAndSaysSo() throws {
        let (diagnostics, impact) = Self.lintAllVersions(#"{"scoreA":1}"#, maxDrop: "5%")
        #expect(impact.accepted)
        #expect(!diagnostics.contains { $0.severity == .error })
        let dropped = try #require(diagnostics.first { $0.code == "dropped-by-version" })
        #expect(dropped.severity == .warning)
        #expect(dropped.message.hasSuffix("(accepted by --max-drop 5%: 3.0% of devices drop it)"))
    }

    /// The caller says how its users give the threshold: the sidecar's notes name the query
    /// parameter, not the command line's option.
    @Test func theNotesNameTheThresholdAsTheCallerSpellsIt() throws {
        #expect(FleetThreshold("5")?.spelled(.option) == "--max-drop 5%")
        #expect(FleetThreshold("0.5%")?.spelled(.queryParameter) == "max-drop=0.5%")
        let bytes = Array(body(#""timestamp":1795000000,"event":"update","content-state":{"scoreA":1}"#).utf8)
        let all = PayloadValidator.validateAllVersions(scoreSchema, bytes, file: "p.json", fleet: Self.fleet)
        let (diagnostics, impact) = PayloadValidator.weigh(all, by: Self.fleet, maxDrop: FleetThreshold("5")!, spelling: .queryParameter)
        let dropped = try #require(diagnostics.first { $0.code == "dropped-by-version" })
        #expect(dropped.message.hasSuffix("(accepted by max-drop=5%: 3.0% of devices drop it)"), "\(dropped.message)")
        #expect(impact.sentence(losing: "this update").hasSuffix("; within max-drop=5%"))
    }

    @Test func aVersionNoDeviceRunsDropsNothing() {
        let (diagnostics, impact) = Self.lintAllVersions(#"{"scoreA":1}"#, fleet: Fleet(devices: [1: 0, 2: 50]), maxDrop: "0%")
        #expect(impact.dropping == 0)
        #expect(impact.accepted)
        #expect(!diagnostics.contains { $0.severity == .error })
    }

    @Test func envelopeErrorsDropEveryVersion() {
        let (diagnostics, impact) = Self.lintAllVersions(#"{"score":"1-0","minute":0}"#, maxDrop: "50%", timestamp: #""1795000000""#)
        #expect(impact.droppingVersions == [1, 2])
        #expect(!impact.accepted)
        #expect(diagnostics.contains { $0.code == "invalid-aps-value" && $0.severity == .error })
    }

    /// A timestamp in milliseconds is an error, but the device applies the update (a date far
    /// ahead, which makes it ignore the later ones): no version drops it, so no share is counted.
    @Test func aDateInMillisecondsIsAnErrorThatDropsNoVersion() {
        let (diagnostics, impact) = Self.lintAllVersions(#"{"score":"1-0","minute":0}"#, maxDrop: "0%", timestamp: "1795000000000")
        #expect(impact.droppingVersions == [])
        #expect(impact.dropping == 0)
        #expect(diagnostics.contains { $0.code == "date-in-milliseconds" && $0.severity == .error })
        #expect(!diagnostics.contains { $0.code == "dropped-by-version" })
    }

    @Test func fallbacksCountAsDegraded() {
        let (_, impact) = Self.lintAllVersions(#"{"score":"1-0","minute":0,"phase":"halftime"}"#, maxDrop: "0%")
        #expect(impact.droppingVersions == [])
        #expect(impact.degradedVersions == [2])
        #expect(impact.degraded == 9_700)
    }

    @Test func compatibilityFindingsNameTheirReadersShare() throws {
        let schema = compatSchema([F.string("title")], [F.string("title", default: "")], strict: [1])
        let report = CompatibilityChecker().check(schema, mode: .forwardTransitive)
        #expect(!report.passes())
        let strictGate = report.weighed(by: Self.fleet, maxDrop: FleetThreshold("1%")!)
        let error = try #require(strictGate.findings.first { $0.severity == .error })
        #expect(error.message.hasSuffix("(app v1: 3.0% of devices (300 of 10,000), broken)"))
        #expect(strictGate.fleet?.accepted == false)
        #expect(!strictGate.passes())
        let lenient = report.weighed(by: Self.fleet, maxDrop: FleetThreshold("3%")!)
        #expect(lenient.passes())
        #expect(lenient.findings.contains { $0.message.hasSuffix("(accepted by --max-drop 3%: 3.0% of devices drop it)") })
        // A schema gate's warning is a drop under a condition as often as a default shown.
        #expect(lenient.summary.hasSuffix("3.0% of devices (300 of 10,000) would lose updates (app version 1); 0% (0) are at risk; within --max-drop 3%"))
        for format in CompatibilityReportFormat.allCases {
            // Workflow commands write '%' as '%25'.
            let share = format == .github ? "3.0%25 of devices" : "3.0% of devices"
            #expect(lenient.rendered(as: format).contains(share), "\(format)")
        }
        #expect(lenient.jsonValue["fleet"]?["dropping"]?["devices"] == .int(300))
        #expect(lenient.jsonValue["fleet"]?["dropping"]?["share"] == .double(0.03))
    }
}

/// A URL only iOS 16 refuses drops the update on the strict version's iOS 16 devices alone,
/// when the fleet file says which iOS its devices run.
@Suite struct FleetIOSTests {
    @Test func onlyTheIOS16DevicesDropAURLIOS17Encodes() throws {
        let fleet = try #require(Fleet.parse(csv: "version,ios,count\n1,16.7,180\n1,17.5,130\n2,18.1,9690\n", file: "f.csv").0)
        let schema = URLAgreementTests.schema(minIOS: .liveActivities)
        let bytes = Array(#"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"link":"https://example.com/a b"}}}"#.utf8)
        let all = PayloadValidator.validateAllVersions(schema, bytes, file: "p.json", fleet: fleet)
        let dropped = try #require(all.diagnostics.first { $0.code == "dropped-by-version" })
        #expect(dropped.message.contains("for 1.8% of devices (180 of 10,000), those on iOS 16;"), "\(dropped.message)")
        let (_, impact) = PayloadValidator.weigh(all, by: fleet, maxDrop: FleetThreshold("0")!)
        #expect(impact.droppingVersions == [1])
        #expect(impact.dropping == 180)
        // Without the ios column every device of the version counts.
        let plain = try #require(Fleet.parse(csv: "version,count\n1,310\n2,9690\n", file: "f.csv").0)
        let (_, whole) = PayloadValidator.weigh(PayloadValidator.validateAllVersions(schema, bytes, fleet: plain), by: plain, maxDrop: FleetThreshold("0")!)
        #expect(whole.dropping == 310)
        // Rows with no ios are devices of an iOS not known: reached, the others split (one
        // such row turned the split off: 360 devices).
        let partly = try #require(Fleet.parse(csv: "version,ios,count\n1,16.7,180\n1,,50\n1,17.5,130\n2,18.1,9640\n", file: "f.csv").0)
        let partlyAll = PayloadValidator.validateAllVersions(schema, bytes, file: "p.json", fleet: partly)
        #expect(PayloadValidator.weigh(partlyAll, by: partly, maxDrop: FleetThreshold("0")!).impact.dropping == 230)
        #expect(partlyAll.diagnostics.contains { $0.message.contains("(230 of 10,000), those on iOS 16 or of an iOS not known;") }, "\(partlyAll.diagnostics)")
        // Releases written as analytics exports write them are read (they turned the split off).
        let exported = try #require(Fleet.parse(csv: "version,ios,count\n1,iOS 16.7,180\n1,ios17.5,130\n2, iOS 18.1 ,9690\n", file: "f.csv").0)
        #expect(PayloadValidator.weigh(PayloadValidator.validateAllVersions(schema, bytes, fleet: exported), by: exported, maxDrop: FleetThreshold("0")!).impact.dropping == 180)
        // An error beside it that drops nothing (a stale-date in milliseconds: the update still
        // applies) neither widens the drop to every device of the version nor is named its
        // cause (it was: 310 devices, "first error: date-in-milliseconds").
        let stale = Array(#"{"aps":{"timestamp":1795000000,"event":"update","stale-date":1795000000000,"content-state":{"link":"https://example.com/a b"}}}"#.utf8)
        let both = PayloadValidator.validateAllVersions(schema, stale, file: "p.json", fleet: fleet)
        let cause = try #require(both.diagnostics.first { $0.code == "dropped-by-version" })
        #expect(cause.message.contains("for 1.8% of devices (180 of 10,000), those on iOS 16; first error: wrong-type at /link"), "\(cause.message)")
        #expect(PayloadValidator.weigh(both, by: fleet, maxDrop: FleetThreshold("0")!).impact.dropping == 180)
    }

    /// A URL iOS 16 reads and iOS 17 refuses (a scheme with `_`) drops the update on the strict
    /// version's devices on iOS 17 and later alone: all of them were counted, and those on iOS
    /// 16 made 100% of a fleet that loses nothing. The message says which iOS refuses it.
    @Test func onlyTheIOS17DevicesDropAURLOnlyIOS17Refuses() throws {
        let fleet = try #require(Fleet.parse(csv: "version,ios,count\n1,16.7,180\n1,17.5,130\n2,18.1,9690\n", file: "f.csv").0)
        let schema = URLAgreementTests.schema(minIOS: .liveActivities)
        let bytes = Array(#"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"link":"my_app://x"}}}"#.utf8)
        let all = PayloadValidator.validateAllVersions(schema, bytes, file: "p.json", fleet: fleet)
        let dropped = try #require(all.diagnostics.first { $0.code == "dropped-by-version" })
        #expect(dropped.message.contains("for 1.3% of devices (130 of 10,000), those on iOS 17 and later;"), "\(dropped.message)")
        let refused = try #require(all.diagnostics.first { $0.code == "wrong-type" })
        #expect(refused.message.contains("'my_app://x' is no URL on iOS 17 and later (min-ios 16.1): URL(string:) there parses by RFC 3986, which refuses it; iOS 16 reads it"), "\(refused.message)")
        let (_, impact) = PayloadValidator.weigh(all, by: fleet, maxDrop: FleetThreshold("0")!)
        #expect(impact.dropping == 130)
        // A fleet all on iOS 16 loses nothing.
        let old = try #require(Fleet.parse(csv: "version,ios,count\n1,16.7,100\n", file: "f.csv").0)
        let (_, none) = PayloadValidator.weigh(PayloadValidator.validateAllVersions(schema, bytes, fleet: old), by: old, maxDrop: FleetThreshold("0")!)
        #expect(none.dropping == 0)
        #expect(none.accepted)
        // From min-ios 17 every device refuses it: it is no URL.
        let modern = URLAgreementTests.schema(minIOS: .rfc3986URLs)
        let plain = PayloadValidator.validateAllVersions(modern, bytes, fleet: fleet)
        #expect(plain.diagnostics.contains { $0.message.contains("'my_app://x' is not a URL") }, "\(plain.diagnostics)")
    }

    /// A version none of whose devices runs the iOS that drops the update loses nothing: its
    /// errors are warnings that say so, while another version's drop fails the gate.
    @Test func aVersionWithNoDeviceOnIOS16LosesNothing() throws {
        let fleet = try #require(Fleet.parse(csv: "version,ios,count\n1,16.7,180\n1,17.5,130\n2,18.1,9690\n", file: "f.csv").0)
        let link = Field(name: "link", type: .url)
        let schema = Schema(activity: "links", strictClients: [1], versions: [
            SchemaVersion(version: 1, contentState: [link]), SchemaVersion(version: 2, contentState: [link]),
        ], minIOS: .liveActivities)
        let bytes = Array(#"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"link":"https://example.com/a b"}}}"#.utf8)
        let all = PayloadValidator.validateAllVersions(schema, bytes, file: "p.json", fleet: fleet)
        let (diagnostics, impact) = PayloadValidator.weigh(all, by: fleet, maxDrop: FleetThreshold("0")!)
        #expect(!impact.accepted)
        let versionTwo = diagnostics.filter { $0.message.hasPrefix("app version 2: ") }
        #expect(!versionTwo.isEmpty)
        #expect(versionTwo.allSatisfy { $0.severity == .warning && $0.message.hasSuffix("(no device of app version 2 in the fleet drops it)") }, "\(versionTwo)")
        let versionOne = try #require(diagnostics.first { $0.message.hasPrefix("app version 1: ") && $0.code == "dropped-by-version" })
        #expect(versionOne.severity == .error)
    }

    /// The devices that fall back to a URL's default are weighed as those that drop it are:
    /// those on iOS 16 alone (it said 100% where 1.8% did), and a version with none of them is
    /// listed neither as dropping nor as falling back.
    @Test func onlyTheIOS16DevicesFallBackToAURLsDefault() throws {
        let fleet = try #require(Fleet.parse(csv: "version,ios,count\n1,17.5,310\n2,16.7,180\n2,18.1,9510\n", file: "f.csv").0)
        let schema = URLAgreementTests.schema(minIOS: .liveActivities)
        let bytes = Array(#"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"link":"https://example.com/a b"}}}"#.utf8)
        let all = PayloadValidator.validateAllVersions(schema, bytes, file: "p.json", fleet: fleet)
        let (_, impact) = PayloadValidator.weigh(all, by: fleet, maxDrop: FleetThreshold("0")!)
        // Version 1's devices are all on iOS 17: none drops it.
        #expect(impact.droppingVersions == [])
        #expect(impact.dropping == 0)
        #expect(impact.degradedVersions == [2])
        #expect(impact.degraded == 180)
    }

    /// A strict version's `invalid-defaulted` says the app applies the value sent: its devices
    /// do not fall back, and `--max-drop` does not make the error a warning, as it does a drop's.
    @Test func aStrictVersionApplyingTheValueSentIsNeitherAFallbackNorAcceptedAsADrop() throws {
        let label = Field(name: "label", type: .string, defaultValue: .string(""), constraints: .init(maxLength: 4))
        let schema = Schema(activity: "link", strictClients: [1], versions: [
            SchemaVersion(version: 1, contentState: [label]),
            SchemaVersion(version: 2, contentState: [label]),
        ])
        let fleet = Fleet(devices: [1: 310, 2: 9_690])
        let bytes = Array(#"{"aps":{"timestamp":1795000000,"event":"update","content-state":{"label":"toolong"}}}"#.utf8)
        let all = PayloadValidator.validateAllVersions(schema, bytes, file: "p.json", fleet: fleet)
        let (diagnostics, impact) = PayloadValidator.weigh(all, by: fleet, maxDrop: FleetThreshold("0")!)
        #expect(impact.accepted)
        #expect(impact.degradedVersions == [2])
        #expect(impact.degraded == 9_690)
        let strict = try #require(diagnostics.first { $0.message.hasPrefix("app version 1:") && $0.code == "invalid-defaulted" })
        #expect(strict.severity == .error, "\(strict)")
        #expect(!strict.message.contains("accepted by"))
    }
}

/// Fleet files a user should never feed us, read without a trap, a hang or a silent pass.
@Suite struct FleetHostileInputTests {
    @Test func hostileCSVGetsADiagnostic() {
        let wide = "version," + (0..<100_000).map { "c\($0)" }.joined(separator: ",") + ",count\n1,5\n"
        let long = "version,count\n1," + String(repeating: "9", count: 10_000_000) + "\n"
        let invalidUTF8 = String(decoding: [0x76, 0x65, 0x72, 0xFF, 0xFE, 0x0A, 0x31, 0x2C, 0x32], as: UTF8.self)
        let manyRows = "version,count\n" + String(repeating: "1,1\n", count: 200_000)
        #expect(Fleet.parse(csv: wide, file: nil).1.first?.code == "fleet-missing-column")
        let wideRow = "version,count\n1,5" + String(repeating: ",x", count: 100_000) + "\n"
        #expect(Fleet.parse(csv: wideRow, file: nil).1.map(\.code) == ["fleet-syntax"])
        #expect(Fleet.parse(csv: long, file: nil).1.first?.code == "fleet-invalid-count")
        #expect(Fleet.parse(csv: invalidUTF8, file: nil).1.first?.code == "fleet-missing-column")
        #expect(Fleet.parse(csv: manyRows, file: nil).0?.devices == [1: 200_000])
        #expect(Fleet.parse(csv: "version,count\n1,1e400\n", file: nil).1.first?.code == "fleet-invalid-count")
    }

    @Test func hostileJSONGetsADiagnostic() {
        let deep = Array(String(repeating: "[", count: 100_000).utf8)
        #expect(Fleet.parse(json: deep, file: nil).1.first?.code == "fleet-syntax")
        #expect(Fleet.parse(json: Array("[{\"version\":1,\"count\":1e400}]".utf8), file: nil).1.first?.code != nil)
        #expect(Fleet.parse(json: [0xFF, 0xFE], file: nil).1.first?.code == "fleet-syntax")
        let duplicate = Array(#"[{"version":1,"count":2,"count":3}]"#.utf8)
        // Refused, as in YAML: which of the two counts is meant is unknown (the first was taken before).
        #expect(Fleet.parse(json: duplicate, file: nil).1.map(\.code) == ["fleet-duplicate-column"])
    }

    @Test func aLongURLIsJudgedQuickly() {
        let long = "https://example.com/" + String(repeating: "a", count: 10_000_000) + " b"
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(URLRule().problem(long) != nil) }
        #expect(elapsed < .seconds(20))
    }
}
