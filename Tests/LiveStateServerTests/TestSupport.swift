import Foundation
import Hummingbird
import HummingbirdTesting
import LiveState
import LiveStateServer

/// Paths, servers and JSON helpers shared by the server suites.
enum ServerFixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The bundled schemas folder.
    static var schemas: String { packageRoot.appendingPathComponent("schemas").path }

    static func path(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/LiveStateServerTests/Fixtures/\(name)").path
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    static func file(_ name: String) throws -> ByteBuffer {
        ByteBuffer(bytes: try bytes(name))
    }

    static func text(_ text: String) -> ByteBuffer {
        ByteBuffer(string: text)
    }

    /// A server on the bundled schemas (or `paths`), on an ephemeral loopback port.
    static func server(paths: [String] = [schemas]) throws -> LiveStateServer {
        LiveStateServer(store: try SchemaStore(paths: paths), configuration: .init(host: "127.0.0.1", port: 0))
    }

    /// A fresh folder holding copies of some bundled schema files.
    static func scratchSchemas(_ names: [String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(
                at: packageRoot.appendingPathComponent("schemas/\(name).yaml"),
                to: folder.appendingPathComponent("\(name).yaml"))
        }
        return folder
    }
}

/// Reads a JSON value out of a response body.
func json(_ response: TestResponse) throws -> Value {
    try response.body.withUnsafeReadableBytes { try Value.parse(json: $0) }
}

extension Value {
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    var int: Int? { if case .int(let value) = self { value } else { nil } }
    var string: String? { if case .string(let value) = self { value } else { nil } }
    var array: [Value]? { if case .array(let value) = self { value } else { nil } }
    var members: [Value.Member]? { if case .object(let value) = self { value } else { nil } }
    /// The member names of an object, in order.
    var keys: [String] { members?.map(\.name) ?? [] }
    /// The `code` of every diagnostic in `diagnostics`.
    var diagnosticCodes: [String] { self["diagnostics"]?.array?.compactMap { $0["code"]?.string } ?? [] }
    /// The `error.code` of an error body.
    var errorCode: String? { self["error"]?["code"]?.string }
}
