import Foundation
import Hummingbird
import HummingbirdTesting
import LiveState
import LiveStateServer
import Testing

/// `GET /metrics`: Prometheus text, with the hot validate route counted like every other.
@Suite struct ServerMetricsTests {
    @Test func requestsValidationsAndTheSchemaSetAreCounted() async throws {
        let server = try ServerFixtures.server()
        try await server.application().test(.live) { client in
            let good = try ServerFixtures.file("update-600.json")
            for _ in 0..<3 {
                _ = try await client.execute(uri: "/v1/schemas/delivery/validate?version=3", method: .post, body: good)
            }
            _ = try await client.execute(uri: "/v1/schemas/delivery/validate?version=3", method: .post, body: ServerFixtures.text("{"))
            _ = try await client.execute(uri: "/v1/schemas/delivery/validate-batch?version=3", method: .post, body: ServerFixtures.text("{\n{\n"))
            _ = try await client.execute(uri: "/nothing", method: .get)
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = String(buffer: response.body)
            for line in [
                #"livestate_http_requests_total{route="/v1/schemas/{id}/validate",method="POST",status="200"} 4"#,
                #"livestate_http_requests_total{route="/v1/schemas/{id}/validate-batch",method="POST",status="200"} 1"#,
                #"livestate_http_requests_total{route="unmatched",method="GET",status="404"} 1"#,
                #"livestate_validations_total{schema="delivery",version="3",outcome="ok"} 3"#,
                #"livestate_validations_total{schema="delivery",version="3",outcome="invalid"} 3"#,
                #"livestate_diagnostics_total{schema="delivery",version="3",code="json-syntax"} 3"#,
                "livestate_schema_generation 1",
                "livestate_schemas_loaded 5",
            ] {
                #expect(text.contains(line), "missing \(line) in\n\(text)")
            }
            #expect(text.contains(#"livestate_http_request_duration_seconds_count{route="/v1/schemas/{id}/validate"} 4"#), "\(text)")
            #expect(text.contains(#"livestate_request_body_bytes_count{route="/v1/schemas/{id}/validate"} 4"#), "\(text)")
            #expect(!text.contains("livestate_schema_last_reload_success"))
            server.store.reload()
            let after = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(after.contains("livestate_schema_last_reload_success 1"), "\(after)")
            #expect(after.contains("livestate_schema_generation 2"))
            // Every family says what it counts (`promtool check metrics` asks for it).
            let types = after.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
            #expect(types.count >= 8, "\(after)")
            for family in types {
                #expect(after.contains("# HELP \(family) "), "no help for \(family)")
            }
        }
    }

    /// A validate-batch answer is timed to its last line: the lines are validated as they are
    /// written, after the head, where the time was taken (0.34 s recorded for 2.75 s served).
    @Test func aBatchIsTimedToItsLastLine() async throws {
        let server = try ServerFixtures.server()
        try await server.application().test(.live) { client in
            let line = String(buffer: try ServerFixtures.file("update-600.json")).replacingOccurrences(of: "\n", with: "")
            let batch = String(repeating: line + "\n", count: 4_000)
            let clock = ContinuousClock()
            let started = clock.now
            let response = try await client.execute(
                uri: "/v1/schemas/delivery/validate-batch?version=3", method: .post, body: ServerFixtures.text(batch))
            let served = (clock.now - started) / .seconds(1)
            #expect(response.status == .ok)
            let text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            let sum = text.split(separator: "\n")
                .first { $0.hasPrefix(#"livestate_http_request_duration_seconds_sum{route="/v1/schemas/{id}/validate-batch"}"#) }
                .flatMap { Double($0.split(separator: " ").last ?? "") }
            let recorded = try #require(sum, "\(text)")
            #expect(recorded >= served / 2, "recorded \(recorded) s of \(served) s")
        }
    }
}
