/// The APNs environment a device token or channel belongs to.
///
/// Xcode builds get sandbox tokens; TestFlight and App Store builds get production ones. A
/// token sent to the other environment's host is answered `BadDeviceToken`.
public enum APNsEnvironment: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `api.sandbox.push.apple.com`: development builds.
    case sandbox
    /// `api.push.apple.com`: TestFlight and App Store builds.
    case production

    /// The other environment.
    public var other: APNsEnvironment { self == .sandbox ? .production : .sandbox }

    public var description: String { rawValue }
}

/// Where a sender connects: the push host (device pushes and broadcasts) and the channel
/// management host, each with its port.
public struct APNsEndpoints: Sendable, Hashable {
    /// The host of device pushes and broadcasts.
    public var pushHost: String
    /// The port of `pushHost` (443; 2197 also works).
    public var pushPort: Int
    /// The host of channel management.
    public var manageHost: String
    /// The port of `manageHost` (2195 sandbox, 2196 production).
    public var managePort: Int

    /// Creates endpoints, for a proxy or a test server.
    /// - Parameters:
    ///   - pushHost: The push host.
    ///   - pushPort: Its port.
    ///   - manageHost: The channel management host.
    ///   - managePort: Its port.
    public init(pushHost: String, pushPort: Int, manageHost: String, managePort: Int) {
        self.pushHost = pushHost
        self.pushPort = pushPort
        self.manageHost = manageHost
        self.managePort = managePort
    }

    /// Apple's hosts for an environment.
    /// - Parameter environment: The environment.
    /// - Returns: `api(.sandbox).push.apple.com:443` and
    ///   `api-manage-broadcast(.sandbox).push.apple.com` on 2195 (sandbox) or 2196 (production).
    public static func apple(_ environment: APNsEnvironment) -> APNsEndpoints {
        switch environment {
        case .sandbox:
            APNsEndpoints(pushHost: "api.sandbox.push.apple.com", pushPort: 443,
                          manageHost: "api-manage-broadcast.sandbox.push.apple.com", managePort: 2195)
        case .production:
            APNsEndpoints(pushHost: "api.push.apple.com", pushPort: 443,
                          manageHost: "api-manage-broadcast.push.apple.com", managePort: 2196)
        }
    }
}
