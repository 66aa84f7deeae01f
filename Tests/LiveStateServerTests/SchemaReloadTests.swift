import Foundation
import Hummingbird
import HummingbirdTesting
import LiveState
import LiveStateServer
import LiveStateYAML
import Testing

/// SIGHUP reloads, called directly: the snapshot swaps whole, or not at all.
@Suite struct SchemaReloadTests {
    @Test func reloadPicksUpANewSchemaFile() async throws {
        let folder = try ServerFixtures.scratchSchemas(["delivery"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServerFixtures.server(paths: [folder.path])
        try await server.application().test(.router) { client in
            let before = try json(try await client.execute(uri: "/v1/schemas", method: .get))
            #expect(before["schemas"]?.array?.compactMap { $0["id"]?.string } == ["delivery"])

            try FileManager.default.copyItem(
                at: ServerFixtures.packageRoot.appendingPathComponent("schemas/pizza.yaml"),
                to: folder.appendingPathComponent("pizza.yaml"))
            let outcome = server.store.reload()
            guard case .reloaded(let snapshot) = outcome else {
                Issue.record("reload failed: \(outcome)")
                return
            }
            #expect(snapshot.generation == 2)
            let after = try json(try await client.execute(uri: "/v1/schemas", method: .get))
            #expect(after["schemas"]?.array?.compactMap { $0["id"]?.string } == ["delivery", "pizza"])
            #expect(after["generation"]?.int == 2)
            let health = try json(try await client.execute(uri: "/health", method: .get))
            #expect(health["generation"]?.int == 2)
        }
    }

    @Test func reloadWithABrokenSchemaKeepsTheOldSnapshot() async throws {
        let folder = try ServerFixtures.scratchSchemas(["delivery"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServerFixtures.server(paths: [folder.path])
        let original = server.store.snapshot
        try await server.application().test(.router) { client in
            try Data(ServerFixtures.bytes("broken.yaml")).write(to: folder.appendingPathComponent("broken.yaml"))
            let outcome = server.store.reload()
            guard case .kept(let kept, let errors) = outcome else {
                Issue.record("a broken schema was loaded: \(outcome)")
                return
            }
            #expect(kept === original)
            #expect(server.store.snapshot === original)
            #expect(errors.contains { $0.file?.hasSuffix("broken.yaml") == true && $0.severity == .error })

            // Still serving from the old snapshot.
            let health = try json(try await client.execute(uri: "/health", method: .get))
            #expect(health["generation"]?.int == 1)
            let response = try await client.execute(
                uri: "/v1/schemas/delivery/validate?version=3", method: .post, body: try ServerFixtures.file("update-600.json"))
            #expect(response.status == .ok)
            #expect(try json(response)["ok"]?.bool == true)
            #expect(try await client.execute(uri: "/v1/schemas/broken/diff", method: .get).status == .notFound)

            // Fixed, it loads.
            try FileManager.default.removeItem(at: folder.appendingPathComponent("broken.yaml"))
            guard case .reloaded(let snapshot) = server.store.reload() else {
                Issue.record("the fixed folder did not reload")
                return
            }
            #expect(snapshot.generation == 2)
        }
    }

    /// A failed reload's findings are kept for `/health`: a fleet file of 300 bad rows made every
    /// answer carry 300 (of 260,000 rows, 53 MB). It lists 100 and counts the rest.
    @Test func healthListsAFailedReloadsFindingsInBrief() async throws {
        let folder = try ServerFixtures.scratchSchemas(["delivery"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let fleet = folder.appendingPathComponent("delivery.csv")
        try Data("version,count\n1,10\n".utf8).write(to: fleet)
        let server = LiveStateServer(
            store: try SchemaStore(paths: [folder.appendingPathComponent("delivery.yaml").path], fleetPath: fleet.path),
            configuration: .init(host: "127.0.0.1", port: 0))
        try Data(("version,count\n" + String(repeating: "x,1\n", count: 300)).utf8).write(to: fleet)
        guard case .kept(_, let errors) = server.store.reload() else {
            Issue.record("a broken schema was loaded")
            return
        }
        #expect(errors.count >= 300)
        try await server.application().test(.router) { client in
            let health = try json(try await client.execute(uri: "/health", method: .get))
            let listed = health["lastReload"]?["diagnostics"]?.array ?? []
            #expect(listed.count < 110, "\(listed.count)")
            #expect(listed.contains { $0["message"]?.string?.hasSuffix("findings are not listed; the first 100 are") == true })
        }
    }

    @Test func reloadWithTwoFilesOfOneIdKeepsTheOldSnapshot() throws {
        let folder = try ServerFixtures.scratchSchemas(["delivery"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SchemaStore(paths: [folder.path])
        try FileManager.default.copyItem(at: folder.appendingPathComponent("delivery.yaml"), to: folder.appendingPathComponent("delivery.yml"))
        guard case .kept(_, let errors) = store.reload() else {
            Issue.record("two schemas with one id were loaded")
            return
        }
        #expect(errors.map(\.code) == ["schema-duplicate-name"])
        #expect(store.snapshot.generation == 1)
    }

    @Test func reloadOfAnEmptiedFolderKeepsTheOldSnapshot() throws {
        let folder = try ServerFixtures.scratchSchemas(["pizza"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SchemaStore(paths: [folder.path])
        try FileManager.default.removeItem(at: folder.appendingPathComponent("pizza.yaml"))
        guard case .kept(let snapshot, let errors) = store.reload() else {
            Issue.record("an empty folder replaced the schemas")
            return
        }
        #expect(snapshot.ids == ["pizza"])
        #expect(errors.map(\.code) == ["schema-empty"])
    }

    @Test func startingWithABrokenSchemaThrowsEveryError() throws {
        let folder = try ServerFixtures.scratchSchemas(["delivery"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(ServerFixtures.bytes("broken.yaml")).write(to: folder.appendingPathComponent("broken.yaml"))
        #expect(throws: SchemaLoadError.self) { try SchemaStore(paths: [folder.path]) }
        #expect(throws: SchemaLoadError.self) { try SchemaStore(paths: [folder.appendingPathComponent("missing").path]) }
    }

    @Test func reloadsDuringRequestsDropNone() async throws {
        let server = try ServerFixtures.server()
        let payload = try ServerFixtures.file("update-600.json")
        try await server.application().test(.router) { client in
            let statuses = try await withThrowingTaskGroup(of: [HTTPResponse.Status].self) { group in
                group.addTask {
                    for _ in 0..<10 { server.store.reload() }
                    return []
                }
                for _ in 0..<4 {
                    group.addTask {
                        var statuses: [HTTPResponse.Status] = []
                        for _ in 0..<50 {
                            let response = try await client.execute(uri: "/v1/schemas/delivery/validate?version=3", method: .post, body: payload)
                            statuses.append(response.status)
                            #expect(try json(response)["ok"]?.bool == true)
                        }
                        return statuses
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(statuses.count == 200)
            #expect(statuses.allSatisfy { $0 == .ok })
            #expect(server.store.snapshot.generation == 11)
        }
    }
}
