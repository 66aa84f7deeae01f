import Foundation
import Testing
@_spi(Scanner) @testable import LiveState

/// Content-states made from `members` (key, JSON text), each with one member's value replaced
/// by each of `replacements` in turn, after `valid`.
func payloads(valid: String, members: [(String, String)], replacements: [String]) -> [String] {
    var payloads = [valid]
    for index in members.indices {
        for replacement in replacements {
            var changed = members
            changed[index].1 = replacement
            payloads.append("{" + changed.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
        }
    }
    return payloads
}

/// The tape (the product's one-pass read) and the full decoder (the reference it is held to)
/// say the same of each payload: the state, every finding worded and placed, and the verdict.
enum TapeAgreement {
    static func expect(_ schema: Schema, versions: [Int], payloads: [String]) throws {
        for version in versions {
            let decoder = try ContentStateDecoder(schema: schema, version: version)
            for payload in payloads {
                let tape = decoder.decode(contentState: Array(payload.utf8))
                let full = decoder.decodeInFull(contentState: Array(payload.utf8))
                #expect(tape.state == full.state, "v\(version) \(payload)")
                #expect(tape.allDiagnostics.map(\.description) == full.allDiagnostics.map(\.description), "v\(version) \(payload)")
                #expect(tape.appDecodes == full.appDecodes, "v\(version) \(payload)")
            }
        }
    }
}

/// A strict version says of each payload what synthesized `Codable` with `JSONDecoder` does:
/// the verdict, and, where both decode it, the typed value.
enum StrictAgreement {
    /// - Returns: How many payloads `JSONDecoder` refused, for the caller to hold the sample to.
    static func expect<T: Decodable & Equatable>(_ type: T.Type, schema: Schema, version: Int, payloads: [String]) throws -> Int {
        let decoder = try ContentStateDecoder(schema: schema, version: version)
        var refused = 0
        for payload in payloads {
            let foundation = try? JSONDecoder().decode(T.self, from: Data(payload.utf8))
            let result = decoder.decode(contentState: Array(payload.utf8))
            #expect(result.appDecodes == (foundation != nil), "\(payload): \(result.allDiagnostics.map(\.message))")
            if let foundation, result.state != nil {
                #expect(try result.decode(T.self) == foundation, "\(payload)")
            }
            if foundation == nil { refused += 1 }
        }
        return refused
    }
}
