import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hummingbird
import HummingbirdTesting
import LiveState
import LiveStateServer
import Logging
import Testing

/// What an operator runs the sidecar with: liveness and readiness, reloads seen on /health,
/// `--watch`, JSON log lines.
@Suite struct ServerOperationsTests {
    @Test func readyAnswersWhileASchemaSetIsLoaded() async throws {
        let server = try ServerFixtures.server()
        try await server.application().test(.router) { client in
            let ready = try await client.execute(uri: "/ready", method: .get)
            #expect(ready.status == .ok)
            #expect(try json(ready)["ready"]?.bool == true)
        }
        let empty = LiveStateServer(store: SchemaStore(snapshot: SchemaSnapshot(schemas: [], generation: 0), paths: []))
        try await empty.application().test(.router) { client in
            let ready = try await client.execute(uri: "/ready", method: .get)
            #expect(ready.status == .serviceUnavailable)
            #expect(try json(ready)["ready"]?.bool == false)
            // Alive all the same.
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
        }
    }

    @Test func healthShowsAFailedReloadAndTheSetItKept() async throws {
        let folder = try ServerFixtures.scratchSchemas(["delivery"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServerFixtures.server(paths: [folder.path])
        try await server.application().test(.router) { client in
            #expect(try json(try await client.execute(uri: "/health", method: .get))["lastReload"] == nil)
            try Data(ServerFixtures.bytes("broken.yaml")).write(to: folder.appendingPathComponent("broken.yaml"))
            server.store.reload()
            let health = try json(try await client.execute(uri: "/health", method: .get))
            #expect(health["status"]?.string == "ok")
            #expect(health["generation"]?.int == 1)
            #expect(health["lastReload"]?["ok"]?.bool == false)
            #expect(health["lastReload"]?["diagnostics"]?.array?.isEmpty == false)
            try FileManager.default.removeItem(at: folder.appendingPathComponent("broken.yaml"))
            server.store.reload()
            let again = try json(try await client.execute(uri: "/health", method: .get))
            #expect(again["lastReload"]?["ok"]?.bool == true)
            #expect(again["generation"]?.int == 2)
        }
    }

    @Test func watchReloadsWhenAFileChanges() async throws {
        let folder = try ServerFixtures.scratchSchemas(["delivery"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SchemaStore(paths: [folder.path])
        let server = LiveStateServer(store: store, configuration: .init(host: "127.0.0.1", port: 0, watchInterval: .milliseconds(50)))
        try await server.application().test(.live) { client in
            try FileManager.default.copyItem(
                at: ServerFixtures.packageRoot.appendingPathComponent("schemas/pizza.yaml"), to: folder.appendingPathComponent("pizza.yaml"))
            #expect(try await Self.eventually { store.snapshot.ids == ["delivery", "pizza"] })
            // A broken file keeps the loaded set, and /health says so.
            try Data(ServerFixtures.bytes("broken.yaml")).write(to: folder.appendingPathComponent("broken.yaml"))
            #expect(try await Self.eventually { store.lastReload?.succeeded == false })
            #expect(store.snapshot.ids == ["delivery", "pizza"])
            let health = try json(try await client.execute(uri: "/health", method: .get))
            #expect(health["lastReload"]?["ok"]?.bool == false)
            let response = try await client.execute(
                uri: "/v1/schemas/pizza/validate", method: .post, body: ServerFixtures.text("{}"))
            #expect(response.status == .ok)
        }
    }

    /// A Kubernetes ConfigMap volume: `pizza.yaml -> ..data/pizza.yaml`, `..data -> ..2026_11_01`,
    /// an update writing a new timestamped folder and swapping the `..data` link. Both the swap
    /// and an edit of the file the links lead to are changes.
    @Test func watchFollowsSymlinksAsAConfigMapMountsThem() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-configmap-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let schema = try String(contentsOf: ServerFixtures.packageRoot.appendingPathComponent("schemas/pizza.yaml"), encoding: .utf8)
        try Self.writeConfigMapFolder("..2026_11_01", holding: schema, in: folder)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("..data").path, withDestinationPath: "..2026_11_01")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("pizza.yaml").path, withDestinationPath: "..data/pizza.yaml")
        let store = try SchemaStore(paths: [folder.path])
        let server = LiveStateServer(store: store, configuration: .init(host: "127.0.0.1", port: 0, watchInterval: .milliseconds(50)))
        try await server.application().test(.live) { _ in
            #expect(store.snapshot.ids == ["pizza"])
            // The update: a new folder, then `..data` swapped with one rename.
            try Self.writeConfigMapFolder("..2026_11_02", holding: schema + "# the update\n", in: folder)
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("..data_tmp").path, withDestinationPath: "..2026_11_02")
            #expect(rename(folder.appendingPathComponent("..data_tmp").path, folder.appendingPathComponent("..data").path) == 0)
            try FileManager.default.removeItem(at: folder.appendingPathComponent("..2026_11_01"))
            #expect(try await Self.eventually { store.snapshot.generation == 2 }, "the swap of ..data was not seen")
            // The file behind the links, edited in place.
            try Data((schema + "# edited in place, and longer\n").utf8).write(to: folder.appendingPathComponent("..2026_11_02/pizza.yaml"))
            #expect(try await Self.eventually { store.snapshot.generation == 3 }, "the edit behind the links was not seen")
        }
    }

    /// Writes `folder/name/pizza.yaml`, as the kubelet writes a ConfigMap's timestamped folder.
    static func writeConfigMapFolder(_ name: String, holding schema: String, in folder: URL) throws {
        let data = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data(schema.utf8).write(to: data.appendingPathComponent("pizza.yaml"))
    }

    /// Polls `condition` for up to ten seconds.
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<200 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }

    @Test func jsonLogLinesCarryTheRequest() {
        // Other tests may write to standard error meanwhile: this line is told by its message.
        let message = "request \(UUID().uuidString)"
        let lines = LogCapture.lines {
            var logger = Logger(label: "livestate.serve") { ServerLogHandler(label: $0, format: .json, level: .debug) }
            logger[metadataKey: "hb.request.id"] = "abc"
            logger.debug("\(message)", metadata: ["status": "200", "path": "/v1/schemas/delivery/validate"])
            logger.trace("\(message) below the level")
        }.filter { $0.contains(message) }
        #expect(lines.count == 1, "\(lines)")
        let bytes = Array((lines.first ?? "").utf8)
        let value = try? Value.parse(json: bytes)
        #expect(value?["level"]?.string == "debug")
        #expect(value?["message"]?.string == message)
        #expect(value?["hb.request.id"]?.string == "abc")
        #expect(value?["status"]?.string == "200")
        #expect(value?["time"]?.string?.hasSuffix("Z") == true)
        // To the millisecond: lines within one second keep their order.
        #expect(value?["time"]?.string?.firstMatch(of: #/T\d\d:\d\d:\d\d\.\d{3}Z$/#) != nil, "\(lines)")
    }

    /// A request's decoded query (`version=1%0A…`) wrote a whole forged line into the text log.
    @Test func aTextLogLineStaysOneLine() {
        let marker = UUID().uuidString
        let lines = LogCapture.lines {
            var logger = Logger(label: "livestate.serve") { ServerLogHandler(label: $0, format: .text, level: .debug) }
            logger[metadataKey: "marker"] = "\(marker)"
            logger.debug("request", metadata: ["version": "1\n2026-12-06T00:00:00Z critical livestate.serve: FORGED\r\u{1B}[31m"])
        }.filter { $0.contains(marker) || $0.contains("FORGED") }
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains(#"version=1\u{A}2026-12-06T00:00:00Z critical livestate.serve: FORGED\u{D}\u{1B}[31m"#) == true, "\(lines)")
    }
}

/// Standard error's lines while `body` runs.
enum LogCapture {
    /// Standard error is the process's: one capture at a time.
    private static let lock = NSLock()

    static func lines(_ body: () -> Void) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let pipe = Pipe()
        let saved = dup(STDERR_FILENO)
        dup2(pipe.fileHandleForWriting.fileDescriptor, STDERR_FILENO)
        body()
        dup2(saved, STDERR_FILENO)
        close(saved)
        try? pipe.fileHandleForWriting.close()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
