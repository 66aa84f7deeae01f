import Testing
@_spi(Scanner) @testable import LiveState

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
