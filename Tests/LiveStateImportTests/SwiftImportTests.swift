import Foundation
import LiveState
import LiveStateTooling
import LiveStateImport
import LiveStateYAML
import Testing

enum Corpus {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")
    /// One Swift file per activity, or a folder whose files together declare one.
    static let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()

    static func activity(_ name: String) throws -> SwiftImporter.Activity {
        let path = folder.appendingPathComponent(name).path
        var paths = [path]
        if !name.hasSuffix(".swift") {
            paths = try FileManager.default.contentsOfDirectory(atPath: path).sorted().map { path + "/" + $0 }
        }
        let result = SwiftImporter.importActivities(try paths.map { ($0, try String(contentsOfFile: $0, encoding: .utf8)) })
        #expect(!result.diagnostics.contains { $0.severity == .error }, "\(result.diagnostics)")
        #expect(result.activities.count == 1)
        return try #require(result.activities.first)
    }

    /// The imported version as a loaded schema, through the YAML the CLI writes.
    static func schema(_ activity: SwiftImporter.Activity) throws -> Schema {
        let yaml = SchemaYAMLWriter.schema(activity: "imported", activity, source: "test")
        return try SchemaLoader().load(yaml: Array(yaml.utf8), file: "imported.yaml")
    }
}

@Suite struct SwiftImportRuleTests {
    static func fields(_ name: String) throws -> [String: Field] {
        Dictionary(uniqueKeysWithValues: try Corpus.activity(name).contentState.map { ($0.name, $0) })
    }

    @Test func codingKeysRenameAndLeaveOut() throws {
        let fields = try Self.fields("Ride.swift")
        #expect(fields.keys.sorted() == ["driver_name", "eta", "plate"])
        #expect(fields["eta"]?.isRequired == true)
        #expect(fields["eta"]?.documentation?.contains("Swift default 4") == true)
        #expect(fields["plate"]?.isOptional == true)
        #expect(try Corpus.activity("Ride.swift").attributes.map(\.name) == ["rideID"])
    }

    @Test func aTypealiasedContentStateAndImplicitRawValues() throws {
        let fields = try Self.fields("Order.swift")
        #expect(fields["status"]?.type == .enumeration(.integers([0, 5, 6, 7])))
        #expect(fields["courier"]?.isOptional == true)
        #expect(fields["window"]?.type == .dateRange)
        #expect(fields["updatedAt"]?.type == .date)
        #expect(fields["items"]?.type == .array(items: Field(name: "", type: .string)))
        guard case .object(let courier)? = fields["courier"]?.type else { Issue.record("courier is an object"); return }
        #expect(courier.map(\.name) == ["name", "rating"])
    }

    @Test func optionalsEveryWayAndAConformanceOnAnExtension() throws {
        let activity = try Corpus.activity("Score.swift")
        #expect(activity.attributesType == "ScoreAttributes")
        let fields = Dictionary(uniqueKeysWithValues: activity.contentState.map { ($0.name, $0) })
        #expect(fields.keys.sorted() == ["away", "caption", "home", "link", "minute", "note", "phase", "scorer"])
        for name in ["minute", "note", "scorer", "caption", "link"] { #expect(fields[name]?.isOptional == true, "\(name)") }
        #expect(fields["phase"]?.type == .enumeration(.strings(["scheduled", "in_play", "finished"])))
        #expect(fields["link"]?.type == .url)
    }

    @Test func integerWidthsKeepTheirRange() throws {
        let fields = try Self.fields("Flight.swift")
        #expect(fields["seatsLeft"]?.constraints.minimum == -32_768)
        #expect(fields["seatsLeft"]?.constraints.maximum == 32_767)
        guard case .array(let leg)? = fields["legs"]?.type, case .object(let legFields) = leg.type else { Issue.record("legs"); return }
        #expect(legFields.first { $0.name == "gate" }?.constraints.maximum == 255)
    }

    @Test func moreShapesOfTheField() throws {
        let parcel = try Self.fields("Parcel.swift")
        #expect(parcel.keys.sorted() == ["attempts", "carrier", "events", "shippedAt", "signedBy", "weights"])
        #expect(parcel["shippedAt"]?.type == .date)
        #expect(parcel["weights"]?.isOptional == true)
        #expect(parcel["attempts"]?.isRequired == true)
        #expect(parcel["events"]?.type == .array(items: Field(name: "", type: .enumeration(.strings(["label_created", "inTransit", "delivered"])))))
        #expect(try Self.fields("Charge.swift")["mode"]?.type == .enumeration(.integers([-1, 0, 1, 10])))
        #expect(try Self.fields("Auction.swift").keys.sorted() == ["bid", "bidders", "ends"])
        #expect(try Self.fields("Transit.swift")["tripID"]?.type == .string)
        #expect(try Self.fields("Iterable.swift")["duration"]?.type == .double)
        // `Set`, `ContiguousArray` and `ArraySlice` decode from a JSON array, as `Array` does.
        // An enum's own `init(from:)` that takes a case for any other raw value: its fallback.
        let courier = try Corpus.activity("Courier.swift")
        #expect(!courier.isSynthesized)
        #expect(courier.contentState.map(\.fallback) == [.string("unknown"), nil, nil, .int(1), nil, nil])
        #expect(courier.contentState.map(\.rejectsInvalid) == [true, true, false, true, true, false])
        guard case .array(let history)? = courier.contentState.last?.type else {
            Issue.record("history is an array")
            return
        }
        #expect(history.fallback == .string("unknown") && history.rejectsInvalid)
        guard case .object(let stop)? = courier.contentState.first(where: { $0.name == "lastStop" })?.type else {
            Issue.record("lastStop is an object")
            return
        }
        #expect(stop.map(\.fallback) == [.string("other"), nil])
        let rental = try Self.fields("Rental.swift")
        #expect(rental["warnings"]?.type == .array(items: Field(name: "", type: .string)))
        #expect(rental["stations"]?.type == .array(items: Field(name: "", type: .int)))
    }

    /// An `init(from:)` the import cannot read is reviewed; its fields are the declaration's, and
    /// the version is not a strict client: the app does not decode with synthesized `Codable`,
    /// and a strict verdict would say it does. An `if let` that makes the value it binds into
    /// another (`Date(timeIntervalSince1970: seconds)`) is read: the key as read, reviewed.
    @Test func anUnreadInitializerIsSaidAsSuch() throws {
        let countdown = try Corpus.activity("Countdown.swift")
        #expect(!countdown.isSynthesized && !countdown.hasUnreadInitializer)
        #expect(countdown.contentState.map(\.name) == ["message", "ends_at", "progress"])
        #expect(countdown.contentState[1].type == .double && countdown.contentState[1].isOptional && countdown.contentState[1].rejectsInvalid)
        #expect(countdown.reviews.map(\.message) == [
            "'endsAt' is made from key 'ends_at' by Date(timeIntervalSince1970: seconds); the schema states the key as read, Double",
        ])
        let result = SwiftImporter.importActivities([("U.swift", """
            struct UnreadAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var title: String
                    init(from decoder: any Decoder) throws {
                        let c = try decoder.container(keyedBy: CodingKeys.self)
                        if c.contains(.title) { title = try c.decode(String.self, forKey: .title) } else { title = "" }
                    }
                }
            }
            """)])
        let activity = try #require(result.activities.first)
        #expect(!activity.isSynthesized && activity.hasUnreadInitializer)
        #expect(activity.reviews.map(\.message) == [
            "UnreadAttributes.ContentState has its own init(from:), which the import reads only where it reads each key with decode or decodeIfPresent "
                + "from one keyed container: it has the statement `if c.contains(.title) { title = try c.de…`, whose paths the import does not follow; "
                + "the fields written are the declaration's, which may not be what it reads",
        ])
        let yaml = SchemaYAMLWriter.schema(activity: "unread", activity, source: "U.swift")
        // The app does not decode with synthesized Codable: no strict client speaks for it.
        #expect(!yaml.contains("strict:") && !yaml.contains("synthesized Codable accepts") && !yaml.contains("decoded with synthesized Codable."), "\(yaml)")
        #expect(yaml.contains("decoded with an init(from:) of its own that the import could not read; its fields are the declaration's, as synthesized Codable reads them."), "\(yaml)")
        #expect(try Self.fields("Glucose")["alerts"]?.type == .array(items: Field(name: "", type: .enumeration(.strings(["Below range", "Above range", "No reading"])))))
        #expect(try Self.fields("Glucose")["trend"]?.type == .enumeration(.integers([1, 2, 3, 4, 5])))
        #expect(try Self.fields("Stopwatch.swift")["period"]?.type == .dateRange)
    }

    /// A range of anything but dates, and `Duration`, decode from a JSON array of two: written as
    /// an array of at most 2 elements, reviewed (it was "not in the given files; stated as a
    /// string"), and what is written loads with its `max-items`.
    @Test func rangesAndDurationsAreArraysOfTwo() throws {
        let result = SwiftImporter.importActivities([("R.swift", """
            struct RangeAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable { var r: ClosedRange<Int>; var h: Range<Double>?; var d: Duration }
            }
            """)])
        let activity = try #require(result.activities.first)
        #expect(activity.contentState.map(\.type) == [
            .array(items: Field(name: "", type: .int)), .array(items: Field(name: "", type: .double)), .array(items: Field(name: "", type: .int)),
        ])
        #expect(activity.contentState.map(\.constraints.maxItems) == [2, 2, 2])
        #expect(activity.reviews.map { String($0.message.prefix(40)) } == ["'r' is a ClosedRange<Int>, which the app", "'h' is a Range<Double>, which the app de", "'d' is a Duration, which the app decodes"])
        let schema = try Corpus.schema(activity)
        #expect(schema.versions.first?.contentState.map(\.constraints.maxItems) == [2, 2, 2])
    }

    /// A folder's files are parsed only when the activity may need them: those naming
    /// `ActivityAttributes` or a `ContentState`, and those declaring or extending a type they
    /// name, again and again. A file of other code, broken or not, is not read, and an extension
    /// of a standard type elsewhere pulls in nothing.
    @Test func onlyTheFilesTheActivityNeedsAreParsed() throws {
        let files: [(path: String, source: String)] = [
            ("Activity.swift", """
                struct OrderAttributes: ActivityAttributes {
                    struct ContentState: Codable, Hashable {
                        var courier: Courier; var stage: Stage; var status: _Status; var kind: `Kind`
                        @DefaultFalse var late: Bool
                    }
                }
                """),
            ("Courier.swift", "struct Courier: Codable, Hashable { var name: String; var vehicle: Vehicle }\nextension String { var x: Int { 0 } }"),
            ("Vehicle.swift", "enum Vehicle: String, Codable, Hashable { case bike, car }"),
            ("Stage.swift", "enum Stage: Int, Codable, Hashable { case placed, cooking }"),
            ("StageCoding.swift", "extension Stage { var label: String { \"\" } }"),
            ("Broken.swift", "struct Other { func f( {"),
            ("Strings.swift", "extension String { func y() {} }\nextension Int { }"),
            // Found by the review: a name that is no capitalized word, a backticked one, and a
            // property wrapper whose decoding is an extension of a type no file declares.
            ("Status.swift", "enum _Status: String, Codable, Hashable { case on }"),
            ("Kind.swift", "enum `Kind`: Int, Codable, Hashable { case a }"),
            ("DefaultFalse.swift", "@propertyWrapper struct DefaultFalse: Codable, Hashable { var wrappedValue = false }"),
            ("Decoding.swift", """
                extension KeyedDecodingContainer {
                    func decode(_ type: DefaultFalse.Type, forKey key: Key) throws -> DefaultFalse { try decodeIfPresent(type, forKey: key) ?? .init() }
                }
                """),
        ]
        #expect(SwiftImporter.relevant(files).map(\.path) == ["Activity.swift", "Courier.swift", "Vehicle.swift", "Stage.swift", "StageCoding.swift",
                                                               "Status.swift", "Kind.swift", "DefaultFalse.swift", "Decoding.swift"])
        // Every type is found: no review says one is not in the given files.
        let found = try #require(SwiftImporter.importActivities(files).activities.first)
        #expect(!found.reviews.contains { $0.message.contains("not in the given files") }, "\(found.reviews.map(\.message))")
        #expect(found.contentState.map(\.name) == ["courier", "stage", "status", "kind", "late"])
        #expect(found.contentState.first { $0.name == "status" }?.type == .enumeration(.strings(["on"])))
        let result = SwiftImporter.importActivities(files)
        #expect(!result.diagnostics.contains { $0.file == "Broken.swift" }, "\(result.diagnostics)")
        let activity = try #require(result.activities.first)
        guard case .object(let courier)? = activity.contentState.first?.type else { Issue.record("\(activity.contentState)"); return }
        #expect(courier.map(\.name) == ["name", "vehicle"])
        // With no file naming either, every file is read, and the import says what it found.
        let none = SwiftImporter.importActivities(Array(files.dropFirst()))
        #expect(none.diagnostics.contains { $0.file == "Broken.swift" })
    }

    /// An array of optionals: a schema's items cannot be `null`, so the import writes an array
    /// of the wrapped type, reviewed at the element type, and what it writes loads.
    @Test func anArrayOfOptionalsIsWrittenAndReviewed() throws {
        let result = SwiftImporter.importActivities([("A.swift", """
            struct ListAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable { var laps: [Int?]; var names: Array<String?>?; var grid: [[Double?]] }
            }
            """)])
        let activity = try #require(result.activities.first)
        #expect(activity.contentState.map(\.type) == [
            .array(items: Field(name: "", type: .int)), .array(items: Field(name: "", type: .string)),
            .array(items: Field(name: "", type: .array(items: Field(name: "", type: .double)))),
        ])
        #expect(activity.contentState.map(\.isOptional) == [false, true, false])
        let reviews = activity.reviews.map(\.message)
        #expect(reviews.count == 3, "\(reviews)")
        #expect(reviews.first?.hasPrefix("'laps' is an array of optionals, whose elements may be null; a schema's items cannot be: it states an array of Int") == true, "\(reviews)")
        #expect(activity.reviews.first?.position?.column == 57, "\(activity.reviews)")
        let schema = try Corpus.schema(activity)
        #expect(schema.versions.first?.contentState.count == 3)
    }

    /// `@available(iOS 17, *)` on the attributes type or its `ContentState`: no device below it
    /// runs the activity, so the schema's `min-ios` (which `url` verdicts follow) is that.
    @Test func anAvailabilityAboveLiveActivitiesIsTheMinIOS() throws {
        func imported(_ outer: String, _ inner: String = "") throws -> SwiftImporter.Activity {
            try #require(SwiftImporter.importActivities([("A.swift", """
                \(outer)
                struct AvAttributes: ActivityAttributes {
                    \(inner)
                    struct ContentState: Codable, Hashable { var link: URL }
                }
                """)]).activities.first)
        }
        #expect(try imported("").minIOS == nil)
        #expect(try imported("@available(iOS 15.0, *)").minIOS == nil)
        #expect(try imported("@available(macOS 14, *)").minIOS == nil)
        #expect(try imported("@available(iOS, unavailable)").minIOS == nil)
        #expect(try imported("@available(iOS 17, macOS 14, *)").minIOS == IOSVersion(17, 0))
        #expect(try imported("@available(iOS 16.2, *)", "@available(iOS, introduced: 17.2)").minIOS == IOSVersion(17, 2))
        #expect(try imported("@available(iOS 18.0, *)\n@available(iOSApplicationExtension 16.1, *)").minIOS == IOSVersion(18, 0))
        // Written at the top of a new file, on the version appended to another.
        let activity = try imported("@available(iOS 17.0, *)")
        let file = SchemaYAMLWriter.schema(activity: "av", activity, source: "A.swift")
        #expect(file.contains("\nmin-ios: \"17.0\"\n") && !file.contains("    min-ios:"), "\(file)")
        #expect(SchemaYAMLWriter.version(2, activity, source: "A.swift").contains("\n    min-ios: \"17.0\"\n"))
        let schema = try Corpus.schema(activity)
        #expect(schema.minIOS == IOSVersion(17, 0))
        // iOS 17 reads a URL with a space, which a strict iOS 16 app would refuse.
        let decoder = try ContentStateDecoder(schema: schema, version: 1)
        #expect(decoder.decode(contentState: Data(#"{"link":"https://example.com/a b"}"#.utf8)).appDecodes)
    }

    /// An enum's own `init(from:)` other than `Enum(rawValue: decode(RawValue)) ?? .case` is
    /// reviewed, and the enum written as its raw values; the version is not a strict client,
    /// since the app does not decode it with synthesized `Codable`.
    @Test func anEnumsOwnInitializerIsReadOrReviewed() throws {
        func imported(_ body: String) throws -> SwiftImporter.Activity {
            try #require(SwiftImporter.importActivities([("Enum.swift", """
                struct EnumAttributes: ActivityAttributes {
                    struct ContentState: Codable, Hashable { var phase: Phase }
                }
                enum Phase: String, Codable {
                    case live, done
                    init(from decoder: Decoder) throws {
                        \(body)
                    }
                }
                """)]).activities.first)
        }
        let read = try imported("let c = try decoder.singleValueContainer()\nlet s = try c.decode(RawValue.self)\nself = Self.init(rawValue: s) ?? Phase.done")
        #expect(read.reviews.isEmpty, "\(read.reviews)")
        #expect(read.contentState.first?.fallback == .string("done"))
        #expect(!read.isSynthesized)
        let unread: [(body: String, reason: String)] = [
            ("self = (try? Phase(rawValue: decoder.singleValueContainer().decode(String.self))) ?? .live", "it has the statement `self = (try? Phase(rawValue:"),
            ("self = try Phase(rawValue: decoder.singleValueContainer().decode(String.self).lowercased()) ?? .live", "it has the statement"),
            ("let s = try decoder.singleValueContainer().decode(String.self)\nswitch s { case \"a\": self = .live\n default: self = .done }", "it has the statement `switch s"),
            ("self = .live", "it has the statement `self = .live`"),
        ]
        for (body, reason) in unread {
            let activity = try imported(body)
            // Not synthesized Codable, so not a strict client: the fields are the declaration's.
            #expect(!activity.isSynthesized && activity.hasUnreadInitializer, "\(body)")
            #expect(activity.contentState.first?.fallback == nil, "\(body)")
            #expect(activity.reviews.count == 1 && activity.reviews.first.map {
                $0.message.hasPrefix("enum Phase has its own init(from:), which the import reads only as Enum(rawValue: decode(…)) ?? .case: ")
                    && $0.message.contains(reason)
            } == true, "\(body): \(activity.reviews)")
        }
        // An initializer that takes something other than a decoder is not `Decodable`'s.
        let plain = try #require(SwiftImporter.importActivities([("Plain.swift", """
            struct PlainAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var phase: Phase
                    init(from model: String) { phase = .live }
                }
            }
            enum Phase: String, Codable {
                case live, done
                init(from text: String) { self = text.isEmpty ? .live : .done }
            }
            """)]).activities.first)
        #expect(plain.reviews.isEmpty, "\(plain.reviews)")
        #expect(plain.isSynthesized)
        #expect(plain.contentState.first?.fallback == nil)
        let otherType = try imported("self = try Phase(rawValue: decoder.singleValueContainer().decode(Substring.self)) ?? .live")
        #expect(otherType.reviews.map(\.message) == ["enum Phase's init(from:) reads a Substring, not its raw type String; it is written as its raw values"])
        let notACase = try imported("self = try Phase(rawValue: decoder.singleValueContainer().decode(String.self)) ?? .unknown")
        #expect(notACase.reviews.map(\.message) == ["enum Phase's init(from:) falls back to .unknown, which is not a case this import reads; it is written as its raw values"])
    }

    /// A case without a raw value after one of `Int.max` has none (Swift refuses the type):
    /// reviewed and left out, where it once wrapped round to `Int.min`.
    @Test func anImplicitRawValuePastIntMaxIsReviewed() throws {
        let activity = try #require(SwiftImporter.importActivities([("Level.swift", """
            struct LevelAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var level: Level
                }
            }
            enum Level: Int, Codable {
                case low = 9223372036854775806, high, beyond
            }
            """)]).activities.first)
        #expect(activity.reviews.map(\.message) == [
            "enum Level's case beyond follows the raw value 9223372036854775807, the largest an Int holds: Swift gives it no raw value, and the type does not compile",
        ])
        #expect(activity.contentState.first?.type == .enumeration(.integers([9223372036854775806, 9223372036854775807])))
    }

    /// A property wrapper declared in the given files is read: its `init(from:)` and its
    /// `KeyedDecodingContainer.decode(_:forKey:)` (`PropertyWrapperReading`); a wrapper the
    /// import does not read is reviewed, saying why.
    @Test func aPropertyWrapperInTheFilesIsReadOrReviewed() throws {
        func imported(_ property: String, _ declarations: String) throws -> SwiftImporter.Activity {
            try #require(SwiftImporter.importActivities([("Wrapped.swift", """
                struct WrappedAttributes: ActivityAttributes {
                    struct ContentState: Codable, Hashable { \(property) }
                }
                \(declarations)
                """)]).activities.first)
        }
        func wrapper(_ name: String = "W", _ type: String = "Int", read: String, extras: String = "") -> String {
            """
            @propertyWrapper struct \(name): Codable, Hashable {
                var wrappedValue: \(type)
                init(wrappedValue: \(type)) { self.wrappedValue = wrappedValue }
                init(from decoder: Decoder) throws { \(read) }
                \(extras)
            }
            """
        }
        let strictRead = "wrappedValue = try decoder.singleValueContainer().decode(Int.self)"
        let lenientRead = "let c = try decoder.singleValueContainer()\n self.wrappedValue = (try? c.decode(Int.self)) ?? 7"
        func method(_ body: String) -> String {
            "extension KeyedDecodingContainer { func decode(_ type: W.Type, forKey key: Key) throws -> W { \(body) } }"
        }

        // `(try? decodeIfPresent …) ?? v` with a strict `init(from:)`: anything that throws reads as v.
        let tolerant = try imported("@W var n: Int", wrapper(read: strictRead) + method("(try? decodeIfPresent(type, forKey: key)) ?? W(wrappedValue: 7)"))
        #expect(tolerant.reviews.isEmpty, "\(tolerant.reviews)")
        #expect(!tolerant.isSynthesized)
        let n = try #require(tolerant.contentState.first)
        #expect(n.defaultValue == .int(7) && !n.rejectsInvalid && !n.isOptional)
        // Without a method, a strict wrapper changes nothing: the version stays a strict client.
        let plain = try imported("@W var n: Int", wrapper(read: strictRead))
        #expect(plain.reviews.isEmpty && plain.isSynthesized && plain.contentState.first?.isRequired == true, "\(plain.reviews)")
        // Through a typealias, `return` and `self.` in the method, `W.self` as the type.
        let aliased = try imported("@Seven var n: Int", "typealias Seven = W\n" + wrapper(read: lenientRead)
            + method("return self.decodeIfPresent(W.self, forKey: key) ?? .init(wrappedValue: 7)").replacingOccurrences(of: "return self", with: "return try self"))
        #expect(aliased.reviews.isEmpty, "\(aliased.reviews)")
        #expect(aliased.contentState.first?.defaultValue == .int(7))
        // A method on the protocol is the one synthesized `Codable` calls too (checked with swiftc).
        let onProtocol = try imported("@W var n: Int", wrapper(read: strictRead)
            + method("try decodeIfPresent(type, forKey: key) ?? W(wrappedValue: 5)").replacingOccurrences(of: "extension KeyedDecodingContainer ", with: "extension KeyedDecodingContainerProtocol "))
        #expect(onProtocol.reviews.isEmpty && onProtocol.contentState.first?.defaultValue == .int(5), "\(onProtocol.reviews)")

        let unread: [(property: String, declarations: String, reason: String)] = [
            ("@W var n: Int", wrapper(read: lenientRead),
             "W's init(from:) takes 7 for a value that does not decode, but no KeyedDecodingContainer.decode(_:forKey:) for it is in the given files, so a missing key drops the update"),
            ("@W var n: Int", wrapper(read: lenientRead) + method("try decodeIfPresent(type, forKey: key) ?? W(wrappedValue: 0)"),
             "a missing key or null reads as 0, but a value that does not decode as 7; a schema states one default"),
            ("@W var n: Int", wrapper(read: "wrappedValue = try decoder.singleValueContainer().decode(String.self).count"),
             "W's init(from:) has the statement `wrappedValue = try decoder.singleValueCo…`, which the import does not follow"),
            ("@W var n: Int", "@propertyWrapper struct W: Codable, Hashable { var wrappedValue: Int }",
             "W has no init(from:) of its own in the given files"),
            ("@W var n: Int", "struct W: Codable, Hashable { var wrappedValue: Int }", "W is not declared @propertyWrapper"),
            ("@W var n: Int?", wrapper(read: strictRead), "the import reads a wrapper only of a property that is not optional"),
            ("@W var n: Int", wrapper(read: strictRead) + method("try decodeIfPresent(type, forKey: key) ?? W(wrappedValue: Int.random(in: 0...9))"),
             "defaults to Int.random(in: 0...9) in @W, which a schema cannot state"),
            ("@W var n: Int", wrapper(read: strictRead) + method("guard let v = try decodeIfPresent(type, forKey: key) else { return W(wrappedValue: 0) }\n return v"),
             "its KeyedDecodingContainer.decode(_:forKey:) is not `decodeIfPresent(…) ?? W(wrappedValue: v)` or `if let` of it"),
        ]
        for (property, declarations, reason) in unread {
            let activity = try imported(property, declarations)
            #expect(activity.reviews.count == 1 && activity.reviews.first?.message.contains(reason) == true, "\(declarations): \(activity.reviews)")
        }
    }

    /// `if let x = read { p = x } else { p = v }` is `p = (read) ?? v`; without `else`, `v` is
    /// the property's initial value (`nil` for an optional `var` without one).
    @Test func anIfLetIsTheFallbackItEquals() throws {
        func imported(_ body: String, members: String = "var title: String\n var count: Int") throws -> SwiftImporter.Activity {
            try #require(SwiftImporter.importActivities([("IfLet.swift", """
                struct IfLetAttributes: ActivityAttributes {
                    struct ContentState: Codable, Hashable {
                        \(members)
                        init(from decoder: Decoder) throws {
                            let c = try decoder.container(keyedBy: CodingKeys.self)
                            \(body)
                        }
                    }
                }
                """)]).activities.first)
        }
        let read = try imported("""
            if let title = try c.decodeIfPresent(String.self, forKey: .title) {
                self.title = title
            } else {
                self.title = "none"
            }
            if var n = try? c.decode(Int.self, forKey: .count) { count = n } else { count = 7 }
            """)
        #expect(read.reviews.isEmpty, "\(read.reviews)")
        #expect(!read.isSynthesized)
        #expect(read.contentState.map(\.defaultValue) == [.string("none"), .int(7)])
        #expect(read.contentState.map(\.nullTakesDefault) == [true, false])
        #expect(read.contentState.map(\.rejectsInvalid) == [true, false])
        // No `else`: the initial value, or nil; `try?` in the binding covers only the read.
        let kept = try imported("""
            if let title = try c.decodeIfPresent(String.self, forKey: .title) { self.title = title }
            if let n = try? c.decodeIfPresent(Int.self, forKey: .count) { count = n }
            if let note = try c.decodeIfPresent(String.self, forKey: .note) { self.note = note }
            """, members: "var title = \"t\"\n var count: Int = 2\n var note: String?")
        #expect(kept.reviews.isEmpty, "\(kept.reviews)")
        #expect(kept.contentState.map(\.defaultValue) == [.string("t"), .int(2), nil])
        #expect(kept.contentState.map(\.isOptional) == [false, false, true])
        #expect(kept.contentState.map(\.rejectsInvalid) == [true, false, true])
        // Any other `if` is not read, and the type is reviewed whole.
        let unread = [
            // A further condition that reads a key.
            "if let t = try c.decodeIfPresent(String.self, forKey: .title), try c.decode(Bool.self, forKey: .flag) { title = t } else { title = \"\" }\ncount = 1",
            "if let t = try c.decodeIfPresent(String.self, forKey: .title) { title = t } else if true { title = \"\" } else { title = \"-\" }\ncount = 1",
            "if let t = try c.decodeIfPresent(String.self, forKey: .title) { title = t } else { count = 0 }\ncount = 1",
            "if let t = try c.decodeIfPresent(String.self, forKey: .title) { title = t; count = 1 } else { title = \"\" }",
            // No `else`, and no initial value: the compiler refuses it; never guessed.
            "if let t = try c.decodeIfPresent(String.self, forKey: .title) { title = t }\ncount = 1",
        ]
        for body in unread {
            let activity = try imported(body)
            // Not synthesized Codable, so not a strict client: the fields are the declaration's.
            #expect(!activity.isSynthesized && activity.hasUnreadInitializer, "\(body)")
            #expect(activity.reviews.first?.message.contains("whose paths the import does not follow") == true, "\(body): \(activity.reviews)")
        }
        // A branch that makes the bound value into another is read as the key reads, reviewed.
        let made = try imported("if let t = try c.decodeIfPresent(String.self, forKey: .title) { title = t.uppercased() } else { title = \"\" }\ncount = 1")
        #expect(!made.isSynthesized)
        #expect(made.contentState.first?.defaultValue == .string("") && made.contentState.first?.rejectsInvalid == true)
        #expect(made.reviews.map(\.message) == ["'title' is made from key 'title' by t.uppercased(); the schema states the key as read, String"])
        // A further condition on the bound value alone (Home Assistant's `, !decodedTitle.isEmpty`)
        // leaves the key read as the binding reads it, reviewed: where it fails, the app takes
        // the fallback. The statements after it are read too.
        let tested = try imported("""
            if let t = try c.decodeIfPresent(String.self, forKey: .title), !t.isEmpty { title = t } else { title = "" }
            if let seconds = try c.decodeIfPresent(Double.self, forKey: .count), seconds > 0 { count = Int(seconds) } else { count = 0 }
            """)
        #expect(!tested.hasUnreadInitializer)
        #expect(tested.contentState.map(\.type) == [.string, .double])
        #expect(tested.contentState.map(\.defaultValue) == [.string(""), .double(0)])
        #expect(tested.reviews.map(\.message) == [
            "'title' is made from key 'title' by the condition `!t.isEmpty` (where it fails, the else branch's value); the schema states the key as read, String",
            "'count' is made from key 'count' by Int(seconds) and the condition `seconds > 0` (where it fails, the else branch's value); the schema states the key as read, Double",
        ])
        // `do { p = try c.decode(…) } catch { p = v }` is `p = (try? c.decode(…)) ?? v`.
        let caught = try imported("""
            do { title = try c.decode(String.self, forKey: .title) } catch { title = "none" }
            do {
                self.count = try c.decode(Int.self, forKey: .count)
            } catch {
                self.count = 0
            }
            """)
        #expect(caught.reviews.isEmpty, "\(caught.reviews)")
        #expect(caught.contentState.map(\.defaultValue) == [.string("none"), .int(0)])
        #expect(caught.contentState.map(\.rejectsInvalid) == [false, false])
        #expect(caught.contentState.map(\.nullTakesDefault) == [false, false])
        for body in [
            // A missing key would be nil, another type the fallback: not a schema's field.
            "do { title = try c.decodeIfPresent(String.self, forKey: .title) ?? \"\" } catch { title = \"-\" }\ncount = 1",
            "do { title = try c.decode(String.self, forKey: .title) } catch let error as DecodingError { title = \"-\" }\ncount = 1",
            "do { title = try c.decode(String.self, forKey: .title) } catch { count = 0 }\ncount = 1",
        ] {
            let activity = try imported(body)
            // Not synthesized Codable, so not a strict client: the fields are the declaration's.
            #expect(!activity.isSynthesized && activity.hasUnreadInitializer, "\(body)")
            #expect(activity.reviews.count == 1, "\(body): \(activity.reviews)")
        }
        // The fallback is read as any `??`'s: one that reads a key makes two reads.
        let twice = try imported("""
            if let t = try c.decodeIfPresent(String.self, forKey: .title) { title = t } else { title = try c.decode(String.self, forKey: .count) }
            count = 1
            """)
        #expect(twice.reviews.first?.message.contains("'title' is made of 2 reads") == true, "\(twice.reviews)")
    }

    @Test func nestedTypesCountingRawValuesAndAFolder() throws {
        let match = try Self.fields("Match.swift")
        #expect(match["period"]?.type == .enumeration(.integers([-1, 0, 1, 10, 11])))
        guard case .object(let clock)? = match["clock"]?.type else { Issue.record("clock is an object"); return }
        #expect(match["clock"]?.isOptional == true)
        #expect(clock.map(\.name) == ["s", "added_s"])
        #expect(match["homeGoals"]?.constraints.minimum == 0)
        let boarding = try Corpus.activity("Boarding")
        #expect(boarding.attributesType == "BoardingAttributes")
        #expect(boarding.attributes.map(\.name) == ["gateChangeAllowed", "confirmation"])
        let fields = Dictionary(uniqueKeysWithValues: boarding.contentState.map { ($0.name, $0) })
        #expect(fields.keys.sorted() == ["boardingWindow", "gate", "seat", "status", "zone"])
        #expect(fields["status"]?.type == .enumeration(.strings(["on-time", "delayed", "boarding", "gate closed"])))
        #expect(fields["zone"]?.constraints.minimum == -128)
        #expect(fields["seat"]?.isOptional == true)
        let weather = try Self.fields("Weather.swift")
        #expect(weather.keys.sorted() == ["alerts", "hourly", "observedAt", "pressure", "raining", "stationID", "temperature", "windDegrees"])
        #expect(weather["hourly"]?.type == .array(items: Field(name: "", type: .array(items: Field(name: "", type: .double)))))
        #expect(weather["windDegrees"]?.constraints.maximum == 65_535)
        #expect(try Self.fields("Locker.swift").keys.sorted() == ["code", "expiresAt", "opened"])
    }

    @Test func codingKeysThroughATypealias() throws {
        #expect(try Self.fields("Timer.swift").keys.sorted() == ["ends_at", "paused", "title"])
    }

    @Test func whatAParseCannotSeeIsMarkedForReview() throws {
        let source = """
            struct WrappedAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    @Clamped var rating: Double
                    var tags: [String: Int]
                    var owner: Person
                    var mood: Mood
                    var id: UUID
                    init(from decoder: Decoder) throws { fatalError() }
                }
            }
            enum Mood: Codable { case happy(level: Int) }
            """
        let result = SwiftImporter.importActivities([("Wrapped.swift", source)])
        let reviews = result.activities.first?.reviews ?? []
        #expect(reviews.count == 4, "\(reviews)")
        // A `UUID` is a string of its format, which a schema states: nothing to review.
        #expect(!reviews.contains { $0.message.contains("'id'") })
        #expect(result.activities.first?.contentState.first { $0.name == "id" }?.stringFormat == .uuid)
        #expect(reviews.allSatisfy { $0.code == "needs-review" && $0.severity == .warning && $0.position != nil })
        #expect(reviews.contains { $0.message.contains("own init(from:)") && $0.position?.line == 8 })
        #expect(reviews.contains { $0.message.contains("@Clamped") && $0.position?.line == 3 })
        // A `[String: Int]` is a map, which a schema states: nothing to review.
        #expect(!reviews.contains { $0.message.contains("'tags'") })
        #expect(result.activities.first?.contentState.first { $0.name == "tags" }?.type == .map(items: Field(name: "", type: .int)))
        #expect(reviews.contains { $0.message == #"enum Mood has associated values: the app decodes {"happy": {"level": …}} (SE-0295), exactly one case key; a schema states it as an object of the cases, each optional, which checks what a case holds but takes none or several of them"# })
        let keyed = SwiftImporter.importActivities([("Keyed.swift", """
            struct K: ActivityAttributes { struct ContentState: Codable, Hashable { var byDay: Dictionary<Day, Int> } }
            enum Day: String, Codable, Hashable { case mon }
            """)])
        #expect(keyed.activities.first?.reviews.map(\.message) == [
            "'byDay' is a dictionary, which the app decodes from a flat [key, value, key, value, …] array (its keys are Day, not String or Int); a schema cannot state that, so it is written as an empty object",
        ])
        // An `Int` key is a map's with `keys: int`, which the schema checks: nothing to review
        // but the optional values.
        let numbered = SwiftImporter.importActivities([("Numbered.swift", """
            struct N: ActivityAttributes { struct ContentState: Codable, Hashable { var byRound: [Int: String?] } }
            """)])
        #expect(numbered.activities.first?.contentState.first?.type == .map(items: Field(name: "", type: .string)))
        #expect(numbered.activities.first?.contentState.first?.hasIntegerKeys == true)
        let written = try #require(numbered.activities.first.map { SchemaYAMLWriter.version(1, $0, source: "Numbered.swift") })
        #expect(written.contains("byRound: { type: map, keys: int, items: { type: string } }"), "\(written)")
        #expect(numbered.activities.first?.reviews.map(\.message) == [
            "'byRound' is a dictionary of optionals, whose values may be null; a schema's items cannot be: it states a map of String, so a null value refuses the map where the app holds nil",
        ])
    }

    /// A dictionary or array literal of literals after `??` is a default a schema states; one
    /// with a key written twice (which traps) makes the key required, and one with a value that
    /// is no literal is not a default.
    @Test func collectionLiteralDefaultsAreWritten() throws {
        let source = """
            struct ScoreAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var extra: Dictionary<String, Double>
                    var byRound: [Int: [String]]
                    var steps: [Int]
                    var tags: Set<String>
                    var twice: [String: Int]
                    var called: [String: Int]
                    init(from decoder: Decoder) throws {
                        let c = try decoder.container(keyedBy: CodingKeys.self)
                        extra = try c.decodeIfPresent(Dictionary<String, Double>.self, forKey: .extra) ?? ["pi": 3.14, "e": 2]
                        byRound = try c.decodeIfPresent([Int: [String]].self, forKey: .byRound) ?? [1: ["a"], -2: []]
                        steps = try c.decodeIfPresent([Int].self, forKey: .steps) ?? [1, 2, 3]
                        tags = try c.decodeIfPresent(Set<String>.self, forKey: .tags) ?? ["a"]
                        twice = try c.decodeIfPresent([String: Int].self, forKey: .twice) ?? ["a": 1, "a": 2]
                        called = try c.decodeIfPresent([String: Int].self, forKey: .called) ?? ["a": Int.max]
                    }
                }
            }
            """
        let result = SwiftImporter.importActivities([("Score.swift", source)])
        let fields = Dictionary(uniqueKeysWithValues: (result.activities.first?.contentState ?? []).map { ($0.name, $0) })
        #expect(fields["extra"]?.defaultValue == .object([.init("pi", .double(3.14)), .init("e", .double(2))]))
        #expect(fields["byRound"]?.defaultValue == .object([.init("1", .array([.string("a")])), .init("-2", .array([]))]))
        #expect(fields["steps"]?.defaultValue == .array([.int(1), .int(2), .int(3)]))
        // A Set decodes from a JSON array, as an Array does: its literal too.
        #expect(fields["tags"]?.defaultValue == .array([.string("a")]))
        // A key written twice stops the app: required, and said so; a call is no literal.
        #expect(fields["twice"]?.defaultValue == nil && fields["twice"]?.isRequired == true)
        #expect(fields["called"]?.defaultValue == nil)
        let reviews = result.activities.first?.reviews.map(\.message) ?? []
        #expect(reviews.filter { $0.contains("which a schema cannot state") }.count == 1, "\(reviews)")
        #expect(reviews.contains { $0.contains("a dictionary literal that gives the key 'a' twice: Swift stops the app on it") }, "\(reviews)")
    }

    /// Keys written `+2` and `-9223372036854775808` are literals a schema states, and `[(Int)]`
    /// is `[Int]`: parentheses around one type make no tuple.
    @Test func signedKeysAndParenthesizedTypesAreRead() throws {
        let result = SwiftImporter.importActivities([("Signed.swift", """
            struct SignedAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var plus: [Int: String]
                    var least: [Int: String]
                    var list: [(Int)]
                    init(from decoder: any Decoder) throws {
                        let c = try decoder.container(keyedBy: CodingKeys.self)
                        plus = try c.decodeIfPresent([Int: String].self, forKey: .plus) ?? [+2: "y"]
                        least = try c.decodeIfPresent([Int: String].self, forKey: .least) ?? [-9223372036854775808: "m"]
                        list = try c.decode([(Int)].self, forKey: .list)
                    }
                }
            }
            """)])
        let activity = try #require(result.activities.first)
        #expect(activity.reviews.isEmpty, "\(activity.reviews.map(\.message))")
        #expect(activity.contentState.map(\.defaultValue) == [
            .object([.init("2", .string("y"))]), .object([.init("-9223372036854775808", .string("m"))]), nil,
        ])
        #expect(activity.contentState.last?.type == .array(items: Field(name: "", type: .int)))
    }

    /// `?? 18446744073709551615` for a `UInt64` is a default a schema states: `Value.uint`.
    @Test func aUInt64DefaultPastIntMaxIsWritten() throws {
        let source = """
            struct CounterAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var id: UInt64
                    var mask: UInt64
                    init(from decoder: Decoder) throws {
                        let c = try decoder.container(keyedBy: CodingKeys.self)
                        id = try c.decodeIfPresent(UInt64.self, forKey: .id) ?? 18_446_744_073_709_551_615
                        mask = try c.decodeIfPresent(UInt64.self, forKey: .mask) ?? 0xFFFF_FFFF_FFFF_FFFF
                    }
                }
            }
            """
        let result = SwiftImporter.importActivities([("Counter.swift", source)])
        let fields = try #require(result.activities.first?.contentState)
        #expect(fields.map(\.defaultValue) == [.uint(.max), .uint(.max)], "\(result.diagnostics)")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    }

    /// An `init(from:)` of its own is read where it reads each key with `decode` or
    /// `decodeIfPresent` from one keyed container; any other body is reviewed whole, at the
    /// statement the import does not follow, and the declaration's keys are written.
    @Test func anInitializerOfItsOwnIsReadOrReviewed() throws {
        func imported(_ body: String, keys: String = "CodingKeys", members: String = "") -> SwiftImporter.Activity? {
            SwiftImporter.importActivities([("Own.swift", """
                struct OwnAttributes: ActivityAttributes {
                    struct ContentState: Codable, Hashable {
                        var title: String
                        var at: Date
                        enum \(keys): String, CodingKey { case title, at = "when" }
                        \(members)
                        init(from decoder: Decoder) throws {
                            let c = try decoder.container(keyedBy: \(keys).self)
                            \(body)
                        }
                    }
                }
                """)]).activities.first
        }
        // Read: keys through another CodingKey enum, a read inside an expression (reviewed), a
        // value that reads no key, `decode … ?? x` (never nil, so required).
        let read = try #require(imported("""
            self.title = try c.decode(String.self, forKey: .title) ?? "x"
            at = Date(timeIntervalSince1970: try c.decode(Double.self, forKey: Keys.at))
            """, keys: "Keys"))
        #expect(!read.isSynthesized)
        #expect(read.contentState.map(\.name) == ["title", "when"])
        #expect(read.contentState.map(\.isRequired) == [true, true])
        #expect(read.contentState.last?.type == .double)
        #expect(read.reviews.map(\.message) == [
            "'at' is made from key 'when' by Date(timeIntervalSince1970: try c.decode…; the schema states the key as read, Double",
        ])
        #expect(read.reviews.first?.position?.line == 10)
        // A local that reads a key is read where it is used (LoopFollow's
        // `let producedAtInterval = try container.decode(Double.self, …)`, then
        // `producedAt = Date(timeIntervalSince1970: producedAtInterval)`): reviewed at the use.
        // A `try?` local keeps its own reach under a `??`.
        let local = try #require(imported("""
            let seconds = try c.decode(Double.self, forKey: .at)
            let maybe = try? c.decode(String.self, forKey: .title)
            title = maybe ?? "x"
            at = Date(timeIntervalSince1970: seconds)
            """))
        #expect(local.contentState.map(\.name) == ["title", "when"])
        #expect(local.contentState.last?.type == .double && local.contentState.last?.isRequired == true)
        #expect(local.contentState.first?.defaultValue == .string("x") && local.contentState.first?.isOptional == false, "\(local.contentState)")
        #expect(local.reviews.map(\.message) == [
            "'at' is made from key 'when' by Date(timeIntervalSince1970: try c.decode…; the schema states the key as read, Double",
        ])
        #expect(local.reviews.first?.position?.line == 12)
        // A `try?` read inside what the app makes of it takes anything (JSONDecoder gives nil,
        // then 1970): optional and tolerant, not required. A literal local is the default it
        // names, and a finding about a fallback is placed at its statement (12), not at a line
        // of the text read in its place.
        let tolerant = try #require(imported("""
            let s = try? c.decode(Double.self, forKey: .at)
            let fallback = "none"
            title = try c.decodeIfPresent(String.self, forKey: .title) ?? fallback
            at = Date(timeIntervalSince1970: s ?? 0)
            """))
        #expect(tolerant.contentState.last?.isOptional == true && tolerant.contentState.last?.rejectsInvalid == false, "\(tolerant.contentState)")
        #expect(tolerant.contentState.first?.defaultValue == .string("none"), "\(tolerant.contentState)")
        let inline = try #require(imported("""
            title = try c.decode(String.self, forKey: .title)
            at = Date(timeIntervalSince1970: (try? c.decode(Double.self, forKey: .at)) ?? 0)
            """))
        #expect(inline.contentState.last?.isOptional == true && inline.contentState.last?.rejectsInvalid == false, "\(inline.contentState)")
        let unstated = try #require(imported("""
            let t = try c.decodeIfPresent(String.self, forKey: .title)
            at = try c.decode(Date.self, forKey: .at)
            title = t ?? String(repeating: "x", count: 3)
            """))
        #expect(unstated.reviews.map(\.position?.line) == [11], "\(unstated.reviews)")
        // `decode(String?.self, …)`: JSONDecoder refuses a missing key (it reads null as nil),
        // so the key is written required, refusing other types, and reviewed; it was optional.
        let optionalType = try #require(imported("""
            title = try c.decode(String?.self, forKey: .title) ?? "none"
            at = try c.decode(Date.self, forKey: .at)
            """))
        #expect(optionalType.contentState.first?.isRequired == true && optionalType.contentState.first?.rejectsInvalid == true,
                "\(optionalType.contentState)")
        #expect(optionalType.reviews.first?.message.hasPrefix("'title' is read with decode(String?.self, …) in init(from:): the key must be there") == true,
                "\(optionalType.reviews)")
        // `c.allKeys` reads no value and cannot throw: the body is read (it was left unread,
        // every field then required).
        let keysSeen = try #require(imported("""
            let seen = c.allKeys.count
            title = seen > 0 ? "some" : "none"
            at = try c.decodeIfPresent(Date.self, forKey: .at) ?? Date(timeIntervalSinceReferenceDate: 0)
            """))
        #expect(!keysSeen.hasUnreadInitializer && keysSeen.contentState.map(\.name) == ["when"], "\(keysSeen.reviews)")
        // A date made from a number is a default a schema states, in seconds since 2001.
        #expect(keysSeen.contentState.first?.defaultValue == .date(0) && keysSeen.reviews.isEmpty, "\(keysSeen.reviews)")
        let since1970 = try #require(imported("""
            title = try c.decode(String.self, forKey: .title)
            at = try c.decodeIfPresent(Date.self, forKey: .at) ?? .init(timeIntervalSince1970: 0)
            """))
        #expect(since1970.contentState.last?.defaultValue == .date(-978_307_200) && since1970.reviews.isEmpty, "\(since1970.reviews)")
        // A chain of `try?` reads of two keys (a legacy key as the fallback, petl's
        // `computedAt`): each key takes any value or none, and both are fields, so the legacy
        // key is not "ignored by the app". The body was left unread, every field required.
        let chained = try #require(imported("""
            title = (try? c.decode(String.self, forKey: .title)) ?? (try? c.decode(String.self, forKey: .at)) ?? "none"
            at = try c.decode(Date.self, forKey: .at)
            """))
        #expect(!chained.hasUnreadInitializer, "\(chained.reviews)")
        #expect(chained.contentState.map(\.name) == ["title", "when"], "\(chained.contentState)")
        #expect(chained.contentState.first?.isOptional == true && chained.contentState.first?.rejectsInvalid == false)
        // Its second key is also read for 'at': one field, required by that read.
        #expect(chained.reviews.filter { $0.message.hasPrefix("'title' is made from key ") }.count == 2, "\(chained.reviews)")
        #expect(chained.contentState.last?.isRequired == true, "\(chained.contentState)")
        // `try?` without parentheses covers the `??`: `decode`'s fallback is never used, and
        // `decodeIfPresent`'s only for a missing key or null.
        let unparenthesized = try #require(imported("""
            title = try? c.decode(String.self, forKey: .title) ?? "x"
            at = try? c.decodeIfPresent(Double.self, forKey: .at) ?? 5
            """))
        #expect(unparenthesized.reviews.isEmpty, "\(unparenthesized.reviews)")
        // `decodeIfPresent … ?? 5`: a missing key and null both read as 5 (`on-null: default`).
        #expect(unparenthesized.contentState.map(\.isOptional) == [true, false])
        #expect(unparenthesized.contentState.map(\.nullTakesDefault) == [false, true])
        #expect(unparenthesized.contentState.map(\.defaultValue) == [nil, .double(5)])
        #expect(unparenthesized.contentState.last?.documentation?.contains("any other value that does not decode as Double as nil") == true)
        // Delegating to another initializer: each argument is a read.
        let delegated = try #require(imported("""
            self.init(title: try c.decodeIfPresent(String.self, forKey: .title) ?? "none", at: Date(), extra: 1)
            """))
        #expect(delegated.reviews.isEmpty, "\(delegated.reviews)")
        #expect(delegated.contentState.map(\.name) == ["title"])
        #expect(delegated.contentState.first?.defaultValue == .string("none"))
        let underOneTry = try #require(imported("""
            try self.init(title: c.decode(String.self, forKey: .title), at: Date())
            """))
        #expect(underOneTry.reviews.isEmpty, "\(underOneTry.reviews)")
        #expect(underOneTry.contentState.map(\.isRequired) == [true])
        let delegatedTwice = try #require(imported("""
            try self.init(title: c.decode(String.self, forKey: .title) + c.decode(String.self, forKey: .at), at: Date())
            """))
        #expect(delegatedTwice.reviews.first?.message.contains("'title' is made of 2 reads") == true, "\(delegatedTwice.reviews)")
        // A default a schema cannot state: optional, reviewed.
        let now = try #require(imported("""
            title = try c.decode(String.self, forKey: .title)
            at = try c.decodeIfPresent(Date.self, forKey: .at) ?? Date()
            """))
        #expect(now.contentState.last?.isOptional == true && now.contentState.last?.defaultValue == nil)
        #expect(now.reviews.map(\.message) == ["'when' defaults to Date() in init(from:), which a schema cannot state; it is written as optional, without the default"])
        // A default the field does not hold (Swift would refuse it) is not written: what is
        // written must load.
        let wide = try #require(imported("""
            title = try c.decodeIfPresent(String.self, forKey: .title) ?? ""
            at = try c.decodeIfPresent(Int8.self, forKey: .at) ?? 300
            """))
        #expect(wide.contentState.last?.defaultValue == nil)
        #expect(wide.reviews.count == 1 && wide.reviews.first?.message.hasPrefix("'when' defaults to 300 in init(from:), which the field does not hold") == true, "\(wide.reviews)")
        #expect(throws: Never.self) { try Corpus.schema(wide) }
        // Not read: each body is reviewed at what the import does not follow, and the
        // declaration's keys are written as synthesized Codable reads them.
        let unread: [(body: String, reason: String)] = [
            ("if c.contains(.title) { title = \"\" } else { title = try c.decode(String.self, forKey: .title) }", "it has the statement `if c.contains(.title) { title = \"\" } els…`, whose paths"),
            ("title = try c.nestedContainer(keyedBy: Keys.self, forKey: .title).decode(String.self, forKey: .x)", "'title' is read in a way the import does not follow"),
            ("title = try! c.decode(String.self, forKey: .title)", "'title' is read with try!, which traps where the others throw"),
            ("try super.init(from: decoder)", "it does more than assign what it reads (try super.init(from: decoder))"),
            ("let single = try decoder.singleValueContainer()", "'single' is read in a way the import does not follow (try decoder.singleValueContainer())"),
            // A local that reads a key: read where it is used, so one used by no property, or
            // by two, is not read.
            ("let t = try c.decode(String.self, forKey: .title)", "it reads 't' into a local that no property is assigned from"),
            ("let t = try c.decode(String.self, forKey: .title)\ntitle = t\nat = Date(timeIntervalSince1970: Double(t.count))",
             "it uses the local 't' more than once"),
            ("title = try c.decode(String.self, forKey: .title) + c.decode(String.self, forKey: .at)", "'title' is made of 2 reads"),
        ]
        for (body, reason) in unread {
            let activity = try #require(imported(body))
            // Not synthesized Codable, so not a strict client: the fields are the declaration's.
            #expect(!activity.isSynthesized && activity.hasUnreadInitializer, "\(body)")
            #expect(activity.contentState.map(\.name) == ["title", "when"], "\(body)")
            #expect(activity.reviews.count == 1, "\(body): \(activity.reviews)")
            #expect(activity.reviews.first.map { $0.message.contains("own init(from:)") && $0.message.contains(reason) } == true, "\(body): \(activity.reviews)")
            #expect(activity.reviews.first?.position?.line == 9, "\(body)")
        }
        // Such a field's Swift default is described as the type decodes: by an init(from:) not
        // read (it said "synthesized Codable ignores it" of a type that has its own decoder).
        let defaulted = try #require(SwiftImporter.importActivities([("Defaulted.swift", """
            struct D: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var count: Int = 0
                    init(from decoder: Decoder) throws {
                        let c = try decoder.container(keyedBy: CodingKeys.self)
                        if c.allKeys.isEmpty { count = 1 } else { count = try c.decode(Int.self, forKey: .count) }
                    }
                }
            }
            """)]).activities.first)
        #expect(defaulted.hasUnreadInitializer && defaulted.contentState.last?.documentation?.hasPrefix(
            "Swift default 0; its own init(from:) is not read, and synthesized Codable would ignore it") == true, "\(defaulted.contentState)")
        // One key read into two properties: one field, what both reads accept (required where
        // one read requires it, refusing what one refuses), reviewed. It was written twice, and
        // the import wrote nothing.
        let twice = SwiftImporter.importActivities([("Twice.swift", """
            struct T: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var a: Int
                    var b: Int
                    var c: Int
                    init(from decoder: Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        a = (try? container.decode(Int.self, forKey: .a)) ?? 0
                        b = try container.decode(Int.self, forKey: .a)
                        c = try container.decodeIfPresent(Int.self, forKey: .c) ?? 1
                    }
                }
            }
            """)]).activities.first
        #expect(twice?.contentState.map(\.name) == ["a", "c"])
        #expect(twice?.contentState.first?.isRequired == true && twice?.contentState.first?.defaultValue == nil, "\(twice?.contentState ?? [])")
        #expect(twice?.reviews.map(\.message) == ["'a' is read again, for 'b': the field is written as what both reads accept"], "\(twice?.reviews ?? [])")
        #expect(throws: Never.self) { try Corpus.schema(try #require(twice)) }
        // A type inside the state with its own init(from:): the version is not synthesized.
        let nested = SwiftImporter.importActivities([("Nested.swift", """
            struct N: ActivityAttributes {
                struct ContentState: Codable, Hashable { var leg: Leg }
            }
            struct Leg: Codable, Hashable {
                var stop: Int
                init(from decoder: Decoder) throws {
                    let container = try decoder.container(keyedBy: CodingKeys.self)
                    stop = (try? container.decode(Int.self, forKey: .stop)) ?? -1
                }
            }
            """)]).activities.first
        #expect(nested?.isSynthesized == false)
        // An outer type's CodingKeys are not the compiler's own of a type that declares none.
        let outer = SwiftImporter.importActivities([("Outer.swift", """
            struct O: ActivityAttributes {
                enum CodingKeys: String, CodingKey { case label = "name" }
                var label: String
                struct ContentState: Codable, Hashable {
                    var label: String
                    init(from decoder: Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        label = try container.decode(String.self, forKey: .label)
                    }
                }
            }
            """)]).activities.first
        #expect(outer?.contentState.map(\.name) == ["label"])
        #expect(outer?.attributes.map(\.name) == ["name"])
        guard case .object(let legFields)? = nested?.contentState.first?.type else { Issue.record("no leg"); return }
        #expect(legFields.first?.defaultValue == .int(-1))
        #expect(try Corpus.activity("Ride.swift").isSynthesized)
    }

    /// `var x, y: Int` declares two `Int`s and `var p = 5` an `Int` that synthesized Codable
    /// requires: both are fields. (They were left out, with a review that `x`'s type was
    /// "inferred from nothing", so `lint` passed payloads without them that the app drops.)
    /// A type conforms to `ActivityAttributes` through a protocol of the given files, or, with
    /// a review, through an SDK's protocol named so (OneSignal's `OneSignalLiveActivityAttributes`),
    /// where the import found no activity before.
    @Test func conformanceThroughAProtocolIsFollowed() throws {
        let result = SwiftImporter.importActivities([("Protocols.swift", """
            protocol AppActivity: ActivityAttributes {}
            protocol BrandedActivity: AppActivity {}
            struct OwnAttributes: BrandedActivity {
                struct ContentState: Codable, Hashable { var step: Int }
            }
            struct PushAttributes: OneSignalLiveActivityAttributes {
                public struct ContentState: OneSignalLiveActivityContentState {
                    var message: String
                }
                var onesignal: OneSignalLiveActivityAttributeData
            }
            struct DeliveryAttributes: InsiderLiveActivitiesAttributes {
                struct ContentState: Codable, Hashable { var stage: String }
            }
            struct Plain: Codable { var x: Int }
            struct Other: SomeProtocol {}
            struct Styled: TextAttributes { var size: Int }
            """)])
        // Insider's protocol ends in `Attributes`, and its type declares a ContentState; a type
        // of another `…Attributes` protocol without one is not an activity.
        #expect(result.activities.map(\.attributesType) == ["DeliveryAttributes", "OwnAttributes", "PushAttributes"])
        #expect(result.activities.first?.reviews.first?.message.hasPrefix("DeliveryAttributes conforms to InsiderLiveActivitiesAttributes") == true)
        let own = try #require(result.activities.dropFirst().first)
        #expect(own.contentState.map(\.name) == ["step"] && own.reviews.isEmpty)
        let push = try #require(result.activities.last)
        #expect(push.contentState.map(\.name) == ["message"])
        #expect(push.reviews.first?.message
            == "PushAttributes conforms to OneSignalLiveActivityAttributes, which is not in the given files: it is read as an ActivityAttributes type, as the protocol's name says; the keys the protocol itself requires are not known (pass its declaration too)")
        #expect(push.reviews.first?.position?.line == 6)
    }

    @Test func propertiesDeclaredTogetherOrFromALiteralAreFields() throws {
        let result = SwiftImporter.importActivities([("Multi.swift", """
            struct MultiAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var x, y: Int
                    var p = 5, q: String
                    var r = -2.5, s = "hi", t = true
                    var a, b: Int8, c: String?
                    var made = Date(), at = Date(timeIntervalSince1970: 0), now = Date.now
                    var id = UUID()
                    var parsed = UUID(uuidString: "x")
                    var other = Thing()
                    let fixed = 1
                }
            }
            """)])
        let activity = try #require(result.activities.first)
        let fields = Dictionary(uniqueKeysWithValues: activity.contentState.map { ($0.name, $0) })
        #expect(activity.contentState.map(\.name) == ["x", "y", "p", "q", "r", "s", "t", "a", "b", "c", "made", "at", "now", "id"])
        // Foundation's values whose type is plain: required keys, as synthesized Codable reads them.
        #expect([fields["made"], fields["at"], fields["now"]].allSatisfy { $0?.type == .date && $0?.isOptional == false })
        #expect(fields["id"]?.type == .string && fields["id"]?.isRequired == true)
        #expect(fields["made"]?.documentation == "Swift default Date(); synthesized Codable ignores it, so the key is required.")
        #expect(fields["x"]?.type == .int && fields["y"]?.type == .int && fields["p"]?.type == .int)
        #expect(fields["q"]?.type == .string && fields["s"]?.type == .string && fields["c"]?.type == .string)
        #expect(fields["r"]?.type == .double && fields["t"]?.type == .bool)
        #expect(fields["a"]?.constraints == fields["b"]?.constraints && fields["a"]?.constraints.maximum == 127)
        #expect(fields["c"]?.isOptional == true && fields["x"]?.isOptional == false && fields["p"]?.isOptional == false)
        // What the import cannot settle is said to be left out, where it is.
        let reviews = activity.reviews.map(\.message)
        #expect(reviews.contains(
            "'parsed' has no type annotation and its type is inferred from UUID(uuidString: \"x\"), which the import does not settle: it is left out of the schema, though synthesized Codable requires its key; add it by hand"))
        #expect(reviews.contains { $0.hasPrefix("'other' has no type annotation and its type is inferred from Thing()") })
        #expect(activity.reviews.first { $0.message.hasPrefix("'parsed'") }?.position?.line == 9)
    }

    /// Stored properties inside `#if` are read as an iOS app build compiles them (they were
    /// skipped, so `lint` passed payloads without the keys the app requires).
    @Test func propertiesInsideIfAreReadAsAnIOSBuildCompilesThem() throws {
        #expect(try Corpus.activity("Kiosk.swift").contentState.map(\.name) == ["queue", "counter", "waitMinutes"])
        let result = SwiftImporter.importActivities([("If.swift", """
            struct IfAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    #if os(iOS) && canImport(ActivityKit)
                    var a: Int
                    #endif
                    #if !os(iOS) || DEBUG
                    var b: Int
                    #endif
                    #if DEBUG
                    var trace: String
                    #else
                    var build: Int
                    static var c: Int = 1
                    #endif
                    #if swift(>=5.9)
                    func describe() {}
                    #endif
                    var z: Kind
                }
                #if canImport(UIKit)
                enum Kind: String, Codable, Hashable { case x }
                #else
                enum Kind: Int, Codable, Hashable { case x }
                #endif
            }
            """)])
        let activity = try #require(result.activities.first)
        #expect(activity.contentState.map(\.name) == ["a", "z"])
        #expect(activity.contentState.last?.type == .enumeration(.strings(["x"])))
        // What cannot be settled is said, where, with what it leaves out; an #if that
        // declares nothing Codable reads is no finding.
        #expect(activity.reviews.map(\.message) == [
            "#if !os(iOS) || DEBUG in IfAttributes.ContentState cannot be settled for an iOS app build (debug and release builds, or SDKs, may differ), so what its clauses declare is left out of the schema: 'b'; synthesized Codable reads those of the clause the app was built with",
            "#if DEBUG in IfAttributes.ContentState cannot be settled for an iOS app build (debug and release builds, or SDKs, may differ), so what its clauses declare is left out of the schema: 'trace', 'build'; synthesized Codable reads those of the clause the app was built with",
        ])
        #expect(activity.reviews.map { $0.position.map { [$0.line, $0.column] } } == [[6, 13], [9, 13]])
        // A whole declaration inside an #if that cannot be settled: the first is read, and said.
        let debug = SwiftImporter.importActivities([("Debug.swift", """
            #if DEBUG
            struct DebugAttributes: ActivityAttributes { struct ContentState: Codable, Hashable { var a: Int } }
            #endif
            """)])
        #expect(debug.activities.first?.reviews.map(\.message) == [
            "DebugAttributes is declared inside #if DEBUG, which this import cannot settle for an iOS app build; it read this declaration",
            "DebugAttributes.ContentState is declared inside #if DEBUG, which this import cannot settle for an iOS app build; it read this declaration",
        ])
    }

    static let wrapperNotGiven = "its declaration is not in the given files (pass it, and its KeyedDecodingContainer extension, to read it)"

    /// Only an attribute that names a type may be a property wrapper, and each is looked at
    /// (every attribute was reported as a wrapper, and only the first was looked at).
    @Test func swiftsOwnAttributesAreNoPropertyWrappers() throws {
        let result = SwiftImporter.importActivities([("Attributed.swift", """
            struct AttributedAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    @available(*, deprecated, message: "use b") var a: Int
                    @objc @MainActor @preconcurrency var b: Int
                    @available(iOS 17, *) @Clamped(0...10) var c: Int
                    @NSCopying @_spi(Live) @usableFromInline @Swift.MainActor var d: String
                    #if os(iOS)
                    @Lenient
                    #endif
                    var e: Int
                }
            }
            """)])
        let activity = try #require(result.activities.first)
        #expect(activity.contentState.map(\.name) == ["a", "b", "c", "d", "e"])
        #expect(activity.reviews.map(\.message) == [
            "'c' has the property wrapper @Clamped(0...10), which decodes as the wrapper does: " + Self.wrapperNotGiven,
            "'e' has the property wrapper @Lenient, which decodes as the wrapper does: " + Self.wrapperNotGiven,
        ])
        #expect(activity.reviews.first?.position.map { [$0.line, $0.column] } == [5, 31])
    }

    /// The standard library writes a `Double` or `Float` raw value as a number: the field is a
    /// `double` bounded by the values, which are listed (it was an empty object, said to be
    /// SE-0295's shape). A `Character` raw value it does not write (`Character` is not
    /// `Codable`): the compiler writes such an enum's cases in SE-0295's shape, as the real
    /// compiler shows, `{"b":{}}`.
    @Test func doubleAndFloatRawValuesAreNumbers() throws {
        let result = SwiftImporter.importActivities([("Raw.swift", """
            struct RawAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    enum Speed: Double, Codable, Hashable { case slow = 0.5, normal = 1, fast = 2.5 }
                    enum Step: Float, Codable, Hashable { case none, one, two }
                    enum Grade: Character, Codable, Hashable { case a = "A", b = "B" }
                    var speed: Speed
                    var step: Step?
                    var grade: Grade
                }
            }
            """)])
        let activity = try #require(result.activities.first)
        let fields = Dictionary(uniqueKeysWithValues: activity.contentState.map { ($0.name, $0) })
        #expect(fields["speed"]?.type == .double)
        #expect(fields["speed"]?.constraints.minimum == 0.5 && fields["speed"]?.constraints.maximum == 2.5)
        #expect(fields["speed"]?.documentation == "One of 0.5, 1, 2.5: the raw values of enum RawAttributes.ContentState.Speed.")
        #expect(fields["step"]?.type == .double && fields["step"]?.numberFormat == .float && fields["step"]?.isOptional == true)
        #expect(fields["step"]?.constraints.minimum == 0 && fields["step"]?.constraints.maximum == 2)
        // Written by case: `{"a": {}}`, each case an optional object.
        #expect(fields["grade"].map { grade in
            guard case .object(let cases) = grade.type else { return false }
            return cases.map(\.name) == ["a", "b"] && cases.allSatisfy { $0.isOptional && $0.type == .object(fields: []) }
        } == true)
        #expect(activity.reviews.map(\.message) == [
            "enum RawAttributes.ContentState.Speed has Double raw values: the app decodes a number, only 0.5, 1, 2.5; a schema lists no such values, so 'speed' is a double from the least to the greatest, and lint passes the numbers between that the app drops",
            "enum RawAttributes.ContentState.Step has Float raw values: the app decodes a number, only 0, 1, 2; a schema lists no such values, so 'step' is a double from the least to the greatest, and lint passes the numbers between that the app drops",
            #"enum RawAttributes.ContentState.Grade has the raw type Character, whose raw values synthesized Codable does not write (only String, integer, Double and Float ones): the app decodes one of {"a": {}}, {"b": {}} (SE-0295), exactly one case key; a schema states it as an object of the cases, each optional, which checks what a case holds but takes none or several of them"#,
        ])
        // The schema written loads back with the bounds.
        let schema = try Corpus.schema(activity)
        #expect(schema.versions.first?.contentState.first { $0.name == "speed" }?.constraints.maximum == 2.5)
    }

    /// An enum with associated values is one finding that says what the app decodes, each case
    /// named (it was one per case with values, and one more for having no raw values).
    @Test func anEnumWithAssociatedValuesIsOneFinding() throws {
        let result = SwiftImporter.importActivities([("Assoc.swift", """
            struct AssocAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable { var phase: Phase; var plain: Plain }
            }
            enum Phase: Codable, Hashable {
                case waiting
                case running(lap: Int, Double), paused(_ reason: String)
            }
            enum Plain: Codable, Hashable { case on, off }
            """)])
        let reviews = try #require(result.activities.first).reviews
        #expect(reviews.map(\.message) == [
            #"enum Phase has associated values: the app decodes one of {"waiting": {}}, {"running": {"lap": …, "_1": …}}, {"paused": {"_0": …}} (SE-0295), exactly one case key; a schema states it as an object of the cases, each optional, which checks what a case holds but takes none or several of them"#,
            #"enum Plain has no String, integer, Double or Float raw values: the app decodes one of {"on": {}}, {"off": {}} (SE-0295), exactly one case key; a schema states it as an object of the cases, each optional, which checks what a case holds but takes none or several of them"#,
        ])
        #expect(reviews.map { $0.position?.line } == [4, 8])
        // Each case an optional object of its values: what a case holds is checked.
        let fields = try #require(result.activities.first).contentState
        func optionalCase(_ name: String, _ values: [Field]) -> Field {
            var field = Field(name: name, type: .object(fields: values))
            field.isOptional = true
            return field
        }
        #expect(fields.first { $0.name == "phase" }?.type == .object(fields: [
            optionalCase("waiting", []),
            optionalCase("running", [Field(name: "lap", type: .int), Field(name: "_1", type: .double)]),
            optionalCase("paused", [Field(name: "_0", type: .string)]),
        ]))
        #expect(fields.first { $0.name == "plain" }?.type == .object(fields: [optionalCase("on", []), optionalCase("off", [])]))
        // An enum that holds itself stops there.
        let recursive = SwiftImporter.importActivities([("Tree.swift", """
            struct TreeAttributes: ActivityAttributes { struct ContentState: Codable, Hashable { var tree: Tree } }
            indirect enum Tree: Codable, Hashable { case leaf(Int), node(Tree, Tree) }
            """)])
        let tree = try #require(recursive.activities.first?.contentState.first)
        #expect(tree.type == .object(fields: [
            optionalCase("leaf", [Field(name: "_0", type: .int)]),
            optionalCase("node", [Field(name: "_0", type: .object(fields: [])), Field(name: "_1", type: .object(fields: []))]),
        ]))
    }

    /// Found by FuzzSwiftImport (FailCases/FuzzSwiftImport/enum-without-readable-cases): Swift
    /// that compiles into what a schema cannot state is a review, not a file that does not load.
    @Test func whatASchemaCannotStateIsAReview() {
        let result = SwiftImporter.importActivities([("E.swift", """
            struct EAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    enum Nothing: Int, Codable, Hashable {}
                    var n: Nothing
                }
            }
            """)])
        #expect(result.activities.first?.reviews.map(\.message) == ["a schema cannot state EAttributes as imported: enum field 'n' has no values"])
        #expect(result.activities.first?.reviews.first?.position?.line == 1)
    }

    /// Found by FuzzSwiftImport (FailCases/FuzzSwiftImport/nested-brackets-parser-exponential):
    /// the parser's time doubles with each unclosed `[`, so deep nesting is refused before parsing.
    @Test func deeplyNestedBracketsAreRefusedBeforeTheParser() {
        let deep = "struct A: ActivityAttributes {\n  struct ContentState: Codable, Hashable { var t: " + String(repeating: "[", count: 40) + "g }\n}\n"
        let result = SwiftImporter.importActivities([("Deep.swift", deep)])
        #expect(result.diagnostics.map(\.code) == ["swift-syntax"])
        #expect(result.diagnostics.first?.position == SourcePosition(offset: 93, line: 2, column: 63))
        // Brackets in comments and strings do not count; twelve levels are read.
        let fine = "// " + String(repeating: "[", count: 40) + "\nlet s = \"" + String(repeating: "[", count: 40) + "\"\n"
            + "struct B: ActivityAttributes { struct ContentState: Codable, Hashable { var t: " + String(repeating: "[", count: 12) + "Int" + String(repeating: "]", count: 12) + " } }\n"
        #expect(SwiftImporter.importActivities([("Fine.swift", fine)]).activities.count == 1)
    }

    /// Generic arguments, `?` runs and `#if` blocks nested past what the parser's (and the
    /// import's) recursion survives are refused before the parser, with where: 1,000 generic
    /// levels, 600 `?` and 3,000 `#if` crashed the import with a stack overflow.
    @Test(arguments: [
        ("var t: " + String(repeating: "A<", count: 1_000) + "Int" + String(repeating: ">", count: 1_000), "generic arguments nest deeper than 64"),
        ("var t: String" + String(repeating: "?", count: 600), "more than 64 '?' or '!' follow one another"),
        (String(repeating: "#if A\n", count: 3_000) + "var t: Int", "#if blocks nest deeper than 256"),
        // Found after the guard landed: a space before `<`, and a member chain 20,000 long.
        ("var t: " + String(repeating: "A <", count: 1_000) + "Int" + String(repeating: ">", count: 1_000), "generic arguments nest deeper than 64"),
        ("var t: " + String(repeating: "A.", count: 20_000) + "Int", "the syntax tree nests deeper than 1000 levels"),
        ("var t = try " + String(repeating: "try ", count: 20_000) + "1", "more than 64 'try', 'await' or 'unsafe' follow one another"),
        ("var t: " + String(repeating: "() -> ", count: 20_000) + "Int", "more than 64 '->' follow one another"),
        ("var t = \"" + String(repeating: #"\(""#, count: 20_000) + "\"", "string interpolations nest deeper than 64"),
        // Chains that only deepen the tree are found in it, before anything walks it.
        ("var t = a" + String(repeating: "[0]", count: 20_000), "the syntax tree nests deeper than 1000 levels"),
        ("var t = f" + String(repeating: "()", count: 20_000), "the syntax tree nests deeper than 1000 levels"),
    ])
    func nestingTheParserCannotSurviveIsRefusedBeforeIt(_ field: String, _ reason: String) throws {
        let deep = "struct A: ActivityAttributes {\n  struct ContentState: Codable, Hashable {\n" + field + "\n  }\n}\n"
        let result = SwiftImporter.importActivities([("Deep.swift", deep)])
        let finding = try #require(result.diagnostics.first)
        #expect(result.diagnostics.map(\.code) == ["swift-syntax"])
        #expect(finding.message.hasPrefix(reason), "\(finding.message)")
        #expect(finding.position?.line ?? 0 >= 3)
    }

    /// A tree just inside `maxTreeDepth` is read on a caller's thread of any size: the import
    /// parses and walks on a thread of its own with a large stack (a secondary thread on Apple
    /// platforms has 512 KiB, which swift-syntax's recursive walks outgrow).
    @Test(arguments: [
        "var t = a" + String(repeating: ".b", count: 498),
        "var t = a" + String(repeating: "[0]", count: 498),
        "var t = f" + String(repeating: "()", count: 498),
    ])
    func aTreeJustInsideTheLimitIsReadOnASmallThread(_ field: String) throws {
        let source = "struct A: ActivityAttributes {\n  struct ContentState: Codable, Hashable {\n  var n: Int\n}\n}\n" + field + "\n"
        final class Outcome: @unchecked Sendable {
            var result: SwiftImporter.Result?
        }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            outcome.result = SwiftImporter.importActivities([("Deep.swift", source)])
            done.signal()
        }
        thread.stackSize = 512 << 10
        thread.start()
        done.wait()
        let result = try #require(outcome.result)
        #expect(!result.diagnostics.contains { $0.message.contains("nests deeper") }, "\(result.diagnostics)")
        #expect(result.activities.map { $0.contentState.map(\.name) } == [["n"]], "\(result.diagnostics)")
    }

    /// Comparisons, optional chains and a few levels of each are read as before.
    @Test func ordinaryGenericsOptionalsAndIfConfigsAreRead() {
        let source = """
            #if os(iOS)
            #if DEBUG
            let x = 1<2 && 3<4 && 5<6
            let s = "x \\(f(1, (2))) y \\("nested \\(g("z")) w") \\\\(not)"
            let k: (Int) -> (Int) -> String = { x in { y in "\\(x)\\(y)" } }
            let y = [1.5, 2.5, 3.5].map { $0 }
                .filter { $0 > 1 }.sorted()
                .reversed()
            #endif
            #endif
            struct A: ActivityAttributes {
                struct ContentState: Codable, Hashable { var t: [String: [Int?]]?; var u: Dictionary<String, Array<Int>>? }
            }
            """
        let result = SwiftImporter.importActivities([("Fine.swift", source)])
        #expect(result.activities.count == 1, "\(result.diagnostics)")
    }

    /// Every input that made FuzzSwiftImport fail, read as the CLI reads a file: no trap, and an
    /// error or an activity for each. (`Fuzz/run.sh` replays them with every invariant.)
    @Test func fuzzFailCasesImportWithoutATrap() throws {
        let folder = Corpus.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/FailCases/FuzzSwiftImport")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(names.count >= 3)
        for name in names {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
            guard let source = String(data: bytes, encoding: .utf8) else { continue }
            let result = SwiftImporter.importActivities([(name, source)])
            #expect(!result.activities.isEmpty || result.diagnostics.contains { $0.severity == .error }, "\(name)")
        }
    }

    /// A type name a schema cannot name (Swift takes `$` inside an identifier; a schema's
    /// `attributes-type` does not) is a review, so nothing is written that does not load.
    /// (FuzzSwiftImport found `SignalAttribute$s`: `type-name-with-dollar-sign` in its fail cases.)
    @Test func anAttributesTypeNameASchemaCannotNameIsAReview() throws {
        let result = SwiftImporter.importActivities([("Dollar.swift", """
            struct Signal$s: ActivityAttributes {
                struct ContentState: Codable, Hashable { var level: Int }
            }
            """)])
        let activity = try #require(result.activities.first)
        #expect(activity.attributesType == "Signal$s")
        #expect(activity.reviews.map(\.message) == [
            "a schema cannot state Signal$s as imported: attributes-type 'Signal$s' is not a Swift type name: the app declares its ActivityAttributes type by it, and a start's aps.attributes-type must name it",
        ])
        #expect(activity.reviews.first?.position?.line == 1)
    }

    /// Raw values holding characters YAML refuses raw (a C1 control, DEL, the byte-order mark)
    /// are escaped in the schema written, which loads with the same values. (FuzzSwiftImport
    /// found `\u{81}`: `c1-control-in-raw-value-yaml` in its fail cases.)
    @Test func rawValuesWithControlCharactersLoadBack() throws {
        let source = #"""
        import ActivityKit
        struct SignalAttributes: ActivityAttributes {
            struct ContentState: Codable, Hashable {
                enum Mark: String, Codable { case c1 = "a\u{81}b", del = "\u{7F}", bom = "\u{FEFF}x", tab = "\t" }
                var mark: Mark
            }
        }
        """#
        let result = SwiftImporter.importActivities([("Signal.swift", source)])
        let activity = try #require(result.activities.first, "\(result.diagnostics)")
        let schema = try Corpus.schema(activity)
        let mark = try #require(schema.versions.first?.contentState.first)
        #expect(mark.type == .enumeration(.strings(["a\u{81}b", "\u{7F}", "\u{FEFF}x", "\t"])))
    }

    /// Found by the hostile-input sweep: a `/*` never closed hid the rest of the file and the
    /// import said nothing (the lexer's error in trivia is not in `hasError`).
    @Test(arguments: [
        "struct A: ActivityAttributes {\n  struct ContentState: Codable, Hashable { var t: Int }\n}\n/* the rest\nstruct B {}\n",
        "struct A: ActivityAttributes {\n  struct ContentState: Codable, Hashable { var t: Int }\n} /* /* nested */",
    ])
    func aCommentNeverClosedIsAnError(_ source: String) throws {
        let result = SwiftImporter.importActivities([("Open.swift", source)])
        let finding = try #require(result.diagnostics.first)
        #expect(result.diagnostics.map(\.code) == ["swift-syntax"])
        #expect(finding.message == "a '/*' comment is never closed with '*/'")
        #expect(finding.position?.line == 4 || finding.position?.line == 3)
        let closed = source.replacingOccurrences(of: "the rest", with: "the rest */").replacingOccurrences(of: "nested */", with: "nested */ */")
        #expect(SwiftImporter.importActivities([("Closed.swift", closed)]).diagnostics.isEmpty)
    }

    /// A `ContentState` that is an enum (its own `init(from:)` switching on a `type` key, or
    /// SE-0295's case keys) has no fields a schema can state, and a version without them would
    /// pass every payload: refused, at the enum, with no activity written.
    @Test func anEnumContentStateIsRefused() throws {
        let result = SwiftImporter.importActivities([("Game.swift", """
            struct GameAttributes: ActivityAttributes {
                public enum ContentState: Codable, Hashable {
                    case preGame(startTimeMs: Int64, title: String)
                    private enum CodingKeys: String, CodingKey { case type, startTimeMs, title }
                    public init(from decoder: Decoder) throws {
                        let container = try decoder.container(keyedBy: CodingKeys.self)
                        switch try container.decode(String.self, forKey: .type) {
                        default: self = .preGame(startTimeMs: 0, title: "")
                        }
                    }
                }
            }
            """)])
        #expect(result.activities.isEmpty)
        let finding = try #require(result.diagnostics.first)
        #expect(result.diagnostics.map(\.code) == [SwiftImporter.unstatableContentState])
        #expect(finding.severity == .error && finding.position?.line == 2, "\(finding)")
        #expect(finding.message.hasPrefix("GameAttributes's ContentState GameAttributes.ContentState is an enum, which a schema cannot state"),
                "\(finding.message)")
    }

    @Test func badSourceGetsAPositionedError() {
        let broken = SwiftImporter.importActivities([("Broken.swift", "struct A: ActivityAttributes {\n  var x: = 3\n")])
        #expect(broken.diagnostics.contains { $0.code == "swift-syntax" && $0.position?.line == 2 })
        let none = SwiftImporter.importActivities([("Plain.swift", "struct A { var x: Int }")])
        #expect(none.diagnostics.map(\.code) == ["no-activity-attributes"])
        let loop = SwiftImporter.importActivities([("Loop.swift", """
            typealias A = B
            typealias B = A
            struct L: ActivityAttributes { struct ContentState: Codable, Hashable { var a: A; var s: L.ContentState? } }
            """)])
        #expect(loop.activities.first?.reviews.map(\.message) == [
            "'a' has the type A, whose typealiases go round in a cycle (A = B = A); stated as a string",
            "L.ContentState contains itself; a schema cannot state a recursive type",
        ])
        let selfAlias = SwiftImporter.importActivities([("Self.swift", """
            typealias A = A
            struct L: ActivityAttributes { struct ContentState: Codable, Hashable { var a: A } }
            """)])
        #expect(selfAlias.activities.first?.reviews.map(\.message) == ["'a' has the type A, a typealias of itself; stated as a string"])
        let notSwift = SwiftImporter.importActivities([("data.swift", String(repeating: "{[(<", count: 5_000))])
        #expect(notSwift.diagnostics.contains { $0.severity == .error })
        let huge = "struct H: ActivityAttributes { struct ContentState: Codable, Hashable { var a: String } }\n"
            + String(repeating: "// filler line\n", count: 70_000)
        #expect(SwiftImporter.importActivities([("Huge.swift", huge)]).activities.count == 1)
    }
}

/// The proof: the original Swift types, compiled by the real compiler into this test target,
/// decode payloads with Foundation's `JSONDecoder`; the imported schema's strict version must
/// give the same verdict on every one (complete, each key missing, each key of another JSON
/// kind, an extra key).
@Suite struct SwiftImportFidelityTests {
    @Test(arguments: Corpus.names)
    func importedSchemaGivesTheCompiledTypesVerdict(_ name: String) throws {
        let activity = try Corpus.activity(name)
        let device = try #require(Compiled.types[activity.attributesType]?.state, "no compiled type for \(activity.attributesType)")
        // A type the parse cannot see through is marked, never guessed; its verdicts are not
        // claimed, so they are not compared.
        if let reviewed = Self.reviewed[activity.attributesType] {
            #expect(activity.reviews.map(\.message).contains { $0.contains(reviewed) }, "\(activity.reviews)")
            return
        }
        #expect(activity.reviews.isEmpty, "\(activity.reviews)")
        let decoder = try ContentStateDecoder(schema: try Corpus.schema(activity), version: 1)
        // A strict client ignores the schema's defaults: given some, its verdicts must not change.
        var defaulted = try Corpus.schema(activity)
        if activity.isSynthesized {
            defaulted.versions[0].contentState = defaulted.versions[0].contentState.map(Self.withSimpleDefault)
        }
        let strictWithDefaults = try ContentStateDecoder(schema: defaulted, version: 1)
        let complete = activity.contentState.map { ($0.name, Self.sample($0)) }
        let payloads = [("complete", complete), ("extra key", complete + [("zzExtra", "1")])] + Self.spoiled(activity.contentState)
        var accepted = 0
        for (label, members) in payloads {
            let json = Self.object(members)
            let data = Data(json.utf8)
            let result = decoder.decode(contentState: data)
            let held = device(data)
            #expect(result.appDecodes == (held != nil), "\(name) \(label): LiveState says \(result.appDecodes) for \(json)")
            #expect(strictWithDefaults.decode(contentState: data).appDecodes == (held != nil), "\(name) \(label), with defaults: \(json)")
            guard let held else { continue }
            accepted += 1
            // The values too. (No corpus type reads `try? decodeIfPresent … ?? v`, whose value of
            // another kind reads as nil in the app, which a schema cannot state: see the import's
            // table.)
            guard let state = result.state, case .object(let fields) = state else { continue }
            for field in fields {
                #expect(Self.same(field.value, held[field.name]), "\(name) \(label): '\(field.name)' is \(field.value) in LiveState, \(held[field.name] ?? "absent") in the app, for \(json)")
            }
        }
        // The comparison means something only if the real type takes the complete payload.
        #expect(device(Data(Self.object(complete).utf8)) != nil, "\(name): the compiled type refuses the complete payload")
        #expect(accepted >= 2)
    }

    /// The attributes too: a start push whose content-state the app takes, with the attributes
    /// spoiled as the state is, must start the activity exactly when the compiled attributes
    /// type decodes them (synthesized `Codable`, a strict version's or not).
    @Test(arguments: Corpus.names)
    func importedSchemaGivesTheCompiledAttributesVerdict(_ name: String) throws {
        let activity = try Corpus.activity(name)
        let device = try #require(Compiled.types[activity.attributesType]?.attributesDecode)
        guard Self.reviewed[activity.attributesType] == nil else { return }
        var schema = try Corpus.schema(activity)
        if activity.isSynthesized {
            // A strict client's attributes type ignores the schema's defaults, as its
            // `ContentState` does: given some, the verdicts must not change.
            schema.versions[0].attributes = schema.versions[0].attributes.map(Self.withSimpleDefault)
        }
        let validator = try PayloadValidator(schema: schema, version: 1)
        let state = Self.object(activity.contentState.map { ($0.name, Self.sample($0)) })
        let complete = activity.attributes.map { ($0.name, Self.sample($0)) }
        var started = 0
        for (label, members) in [("complete", complete), ("extra key", complete + [("zzExtra", "1")])] + Self.spoiled(activity.attributes) {
            let attributes = Self.object(members)
            let body = #"{"aps":{"timestamp":1795000000,"event":"start","content-state":"# + state + #","attributes-type":"#
                + Self.quoted(activity.attributesType) + #","attributes":"# + attributes + #","alert":{"title":"t","body":"b"}}}"#
            let result = validator.validate(Array(body.utf8), file: "p.json")
            let starts = device(Data(attributes.utf8))
            #expect(result.appDecodes == starts, "\(name) attributes \(label): LiveState says \(result.appDecodes) for \(attributes): \(result.diagnostics.filter { $0.severity == .error })")
            if starts { started += 1 }
        }
        #expect(started >= 2, "\(name): the compiled attributes type refuses the complete attributes")
    }

    /// `field` with a default, where it is required and of a type a literal states.
    static func withSimpleDefault(_ field: Field) -> Field {
        guard field.isRequired else { return field }
        var field = field
        field.defaultValue = switch field.type {
        case .string: .string("d")
        case .int: .int(0)
        case .double: .double(0)
        case .bool: .bool(false)
        default: nil
        }
        return field
    }

    /// The members of an object of `fields`, each spoiled one at a time, at any depth (inside an
    /// object, or the one object of an array of objects): missing, of another JSON kind, `null`,
    /// just past its number type's range (Int8's 128, UInt's -1, Float's 3.5e38).
    static func spoiled(_ fields: [Field]) -> [(label: String, members: [(String, String)])] {
        let complete = fields.map { ($0.name, sample($0)) }
        var payloads: [(label: String, members: [(String, String)])] = []
        for (index, field) in fields.enumerated() {
            var missing = complete
            missing.remove(at: index)
            payloads.append(("without \(field.name)", missing))
            var wrong = complete
            wrong[index].1 = complete[index].1.hasPrefix("\"") ? "12" : "\"x\""
            payloads.append(("\(field.name) of another kind", wrong))
            // The key twice, one value of another kind, first or last.
            payloads.append(("\(field.name) again after, of another kind", complete + [wrong[index]]))
            payloads.append(("\(field.name) again before, of another kind", [wrong[index]] + complete))
            wrong[index].1 = "null"
            payloads.append(("\(field.name) null", wrong))
            // Numbers in the forms JSON allows, which Foundation reads by the number type.
            let forms: [String] = switch field.type {
            // Past Int.max and up to UInt64.max: only a UInt64 holds them.
            case .int: ["1.0", "1.5", "1e2", "-0", "100000000000000000000", "9223372036854775808", "18446744073709551615", "1e19"]
            // A Float's edges too (its greatest as Swift writes it, past it, what rounds to zero),
            // and a Decimal's (its exponent's ends, its largest mantissa and past it).
            case .double: [
                "1", "-0", "1e-400", "2e308", "3.4028235e+38", "3.4028236e38", "1e-50", "0e1", "4.9e-324",
                "1e127", "1e128", "0.1e-127", "0.1e-128", "340282366920938463463374607431768211455e127",
                "340282366920938463463374607431768211456e127",
            ]
            case .bool: ["1", "0"]
            case .date: ["1e3", "-1.5"]
            // A relative reference, which `URL(string:)` takes; nothing it takes.
            case .url: ["\"x/y?z\"", "\"\""]
            // Text of each format's edges: lower case, braces, one digit short; padding left out,
            // extra or inside, white space, the empty string.
            case .string where field.stringFormat == .uuid: [
                "\"e621e1f8-c36c-495a-93fc-0c247a3e6e5f\"", "\"{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}\"",
                "\"E621E1F8-C36C-495A-93FC-0C247A3E6E5\"", "\"E621E1F8C36C495A93FC0C247A3E6E5F\"", "\"\"",
            ]
            case .string where field.stringFormat == .base64: ["\"aGk\"", "\"\"", "\"YQ==\"", "\"aGk=aGk=\"", "\" aGk=\"", "\"-_8=\""]
            default: []
            }
            for form in forms {
                wrong[index].1 = form
                payloads.append(("\(field.name) as \(form)", wrong))
            }
            // An element of another kind beside one that reads.
            if case .array(let items) = field.type {
                let element = sample(items)
                wrong[index].1 = "[" + element + "," + (element.hasPrefix("\"") ? "12" : "\"x\"") + "]"
                payloads.append(("\(field.name) with an element of another kind", wrong))
                if case .enumeration(let values) = items.type {
                    if case .strings = values { wrong[index].1 = "[" + element + ",\"zzUnlisted\"]" } else { wrong[index].1 = "[" + element + ",987654]" }
                    payloads.append(("\(field.name) with an unlisted element", wrong))
                }
            }
            // A raw value the enum does not list: its fallback, or the update dropped.
            if case .enumeration(let values) = field.type {
                if case .strings = values { wrong[index].1 = "\"zzUnlisted\"" } else { wrong[index].1 = "987654" }
                payloads.append(("\(field.name) unlisted", wrong))
            }
            for (bound, step) in [(field.constraints.maximum, 1), (field.constraints.minimum, -1)] {
                guard let bound else { continue }
                wrong[index].1 = field.type == .int ? Self.integer(bound, plus: step) : String(bound * 1.03)
                payloads.append(("\(field.name) past \(bound)", wrong))
            }
            var inner: (fields: [Field], inArray: Bool)?
            if case .object(let fields) = field.type { inner = (fields, false) }
            if case .array(let items) = field.type, case .object(let fields) = items.type { inner = (fields, true) }
            guard let inner else { continue }
            for (label, members) in spoiled(inner.fields) {
                var nested = complete
                nested[index].1 = inner.inArray ? "[" + object(members) + "]" : object(members)
                payloads.append(("\(field.name): \(label)", nested))
            }
        }
        return payloads
    }

    /// A JSON object of `members`, each a key and a JSON value.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// Whether LiveState's value is the one the app holds, as its `Encodable` side writes it
    /// (`nil` an absent key: synthesized `encode(to:)` leaves a `nil` out): dates as seconds since
    /// 2001, a date range as `[lower, upper]`, a `URL` as its string.
    /// The first integer past `bound` in the direction of `step` (1 or -1), written out exactly:
    /// `UInt64.max`'s bound (2^64 once a `Double`) plus 1 is 18446744073709551617.
    static func integer(_ bound: Double, plus step: Int) -> String {
        let near = step > 0 ? bound.rounded(.down) : bound.rounded(.up)
        if abs(near) < 1e18 { return String(Int(near) + step) }
        // Past what Int holds, a step away from zero: 1 more in the last digits.
        var digits = Array(String(format: "%.0f", abs(near)).utf8)
        var index = digits.count - 1
        while index >= 0 && digits[index] == UInt8(ascii: "9") {
            digits[index] = UInt8(ascii: "0")
            index -= 1
        }
        if index >= 0 { digits[index] += 1 } else { digits.insert(UInt8(ascii: "1"), at: 0) }
        return (near < 0 ? "-" : "") + String(decoding: digits, as: UTF8.self)
    }

    static func same(_ value: Value, _ held: Any?) -> Bool {
        func number(_ any: Any?) -> Double? { (any as? NSNumber)?.doubleValue }
        switch value {
        case .null: return held == nil || held is NSNull
        case .bool(let bool): return (held as? Bool) == bool
        case .int(let int): return number(held) == Double(int)
        case .uint(let uint): return (held as? NSNumber)?.uint64Value == uint
        case .double(let double), .date(let double):
            guard let other = number(held) else { return false }
            return abs(other - double) <= 1e-6 * max(1, abs(double))
        case .dateRange(let lower, let upper): return same(.array([.date(lower), .date(upper)]), held)
        // The app writes a `UUID` back in upper case: the same UUID.
        case .string(let string) where UUID(uuidString: string) != nil: return (held as? String)?.uppercased() == string.uppercased()
        case .string(let string): return (held as? String) == string
        case .array(let elements):
            guard let others = held as? [Any], others.count == elements.count else { return false }
            return zip(elements, others).allSatisfy { same($0, $1) }
        case .object(let members):
            guard let others = held as? [String: Any] else { return false }
            return members.allSatisfy { same($0.value, others[$0.name]) }
        }
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    /// The corpus types marked for review, each with what the review must say.
    static let reviewed: [String: String] = [
        "CountdownAttributes": "'endsAt' is made from key 'ends_at' by Date(timeIntervalSince1970: seconds); the schema states the key as read, Double",
    ]

    /// A JSON value the field takes.
    static func sample(_ field: Field) -> String {
        switch field.type {
        case .string where field.stringFormat == .uuid: "\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\""
        case .string where field.stringFormat == .base64: "\"aGk=\""
        case .string: "\"s\""
        case .url: "\"https://example.com/x\""
        case .int: "1"
        case .double: "1.5"
        case .bool: "true"
        case .date: "1000"
        case .dateRange: "[1000,2000]"
        case .enumeration(.strings(let values)): quoted(values.first ?? "")
        case .enumeration(.integers(let values)): "\(values.first ?? 0)"
        case .array(let items): "[\(sample(items))]"
        case .object(let fields): object(fields.map { ($0.name, sample($0)) })
        case .map(let items): object([("k", sample(items))])
        }
    }
}
