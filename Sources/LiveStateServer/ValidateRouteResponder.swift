import Hummingbird
import Logging

/// Answers `POST /v1/schemas/{id}/validate`, the sidecar's hot route, before the router, and
/// hands every other request to the router.
///
/// The router splits the path into `Substring`s, compares them with each registered route's
/// constants, and keeps the id in a dictionary of parameters: for this route, more than the
/// rest of the request's own work around the validator. Here the path is matched by bytes. Only
/// the plain form is taken (`/v1/schemas/` + an id of ASCII bytes other than `/` and `%` +
/// `/validate`), a path the router would send to the same handler with the same id; anything
/// else, including every odd spelling, goes through the router as before. The handler and its
/// error responses are the router's: `SchemaRoutes.validate(_:id:)` and `APIErrorMiddleware`.
///
/// A middleware added to the router does not see the requests answered here: whatever it does
/// (metrics, tracing, authentication) has to be done here as well.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct ValidateRouteResponder: HTTPResponder {
    // Concrete, like the server's router: a generic responder is called through witness
    // tables, which every other request would pay for on its way to the router.
    typealias Context = BasicRequestContext

    let routes: SchemaRoutes
    let router: RouterResponder<Context>
    let metrics: SidecarMetrics

    func respond(to request: Request, context: Context) async throws -> Response {
        let path = request.uri.path
        let started = ContinuousClock.now
        let validateID = request.method == .post ? SchemaRoutes.schemaID(inValidatePath: path) : nil
        let response = try await answer(request, validateID: validateID, context: context)
        let elapsed = ContinuousClock.now - started
        // Every request is counted here, the hot route with the rest: it never reaches the
        // router's middleware.
        let route = validateID != nil ? SchemaRoutes.validateRoute : SchemaRoutes.routePattern(path: path)
        metrics.request(route: route, method: request.method.rawValue, status: response.status.code, duration: elapsed)
        // One access line per request at `debug`: the default `info` pays one comparison.
        guard context.logger.logLevel <= .debug else { return response }
        let segments = path.split(separator: "/")
        var metadata: Logger.Metadata = [
            "method": "\(request.method)", "route": "\(route)", "path": "\(path)", "status": "\(response.status.code)",
            "ms": "\(elapsed / .milliseconds(1))",
        ]
        if segments.count >= 3, segments[0] == "v1", segments[1] == "schemas" { metadata["schema"] = "\(segments[2])" }
        if let version = request.uri.queryParameters.get("version") { metadata["version"] = "\(version)" }
        context.logger.debug("request", metadata: metadata)
        return response
    }

    private func answer(_ request: Request, validateID: String?, context: Context) async throws -> Response {
        guard let id = validateID else {
            return try await router.respond(to: request, context: context)
        }
        do {
            return try await routes.validate(request, id: id)
        } catch {
            return try APIErrorMiddleware<Context>.response(to: error, request: request, context: context)
        }
    }
}

/// Builds the router's responder with `ValidateRouteResponder` in front of it.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct SidecarResponderBuilder: HTTPResponderBuilder {
    let routes: SchemaRoutes
    let router: Router<BasicRequestContext>
    let metrics: SidecarMetrics

    func buildResponder() -> ValidateRouteResponder {
        ValidateRouteResponder(routes: routes, router: router.buildResponder(), metrics: metrics)
    }
}
