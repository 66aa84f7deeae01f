import Hummingbird
import Logging

/// Turns every error a route throws, and the router's own 404, into a JSON error body.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return try Self.response(to: error, request: request, context: context)
        }
    }

    /// The JSON error response for an error a route threw.
    static func response(to error: any Error, request: Request, context: Context) throws -> Response {
        switch error {
        case let error as APIError:
            return try error.response(from: request, context: context)
        case let error as any HTTPResponseError:
            let apiError: APIError
            switch error.status {
            case .notFound:
                if let allow = SchemaRoutes.allowedMethods(path: request.uri.path) {
                    apiError = .methodNotAllowed(request.method, path: request.uri.path, allow: allow)
                } else {
                    apiError = APIError(.notFound, code: "not-found", message: "no route \(request.method) \(request.uri.path)")
                }
            case .contentTooLarge:
                apiError = APIError(.contentTooLarge, code: "payload-too-large", message: "the request body is too large")
            default:
                apiError = APIError(error.status, code: "http-\(error.status.code)", message: error.status.reasonPhrase)
            }
            return try apiError.response(from: request, context: context)
        default:
            context.logger.error("request failed", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return try APIError(.internalServerError, code: "internal", message: "the server failed to answer")
                .response(from: request, context: context)
        }
    }
}
