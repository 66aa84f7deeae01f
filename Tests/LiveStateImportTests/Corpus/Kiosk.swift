import Foundation

/// Stored properties inside `#if`, as an iOS app build compiles them: the `#else` of an
/// `os(watchOS)` and `canImport(AppKit)` test, nothing of a `targetEnvironment(macCatalyst)`
/// one. (These conditions answer alike on Linux, where the test compiles it.)
struct KioskAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var queue: Int
        #if os(watchOS)
        var compact: Bool
        #elseif canImport(AppKit) || targetEnvironment(simulator)
        var window: String
        #else
        var counter: String
        #if targetEnvironment(macCatalyst)
        var pointer: Bool
        #endif
        #endif
        var waitMinutes: Double?
    }
}
