import Foundation

/// Declared without `Codable`: the other file's extension adds it.
enum Trend: Int, Hashable {
    case risingFast = 1, rising, steady, falling, fallingFast
}

enum GlucoseUnit: String, Codable, Hashable {
    case milligrams = "mg/dL"
    case millimoles = "mmol/L"
}

enum GlucoseAlert: String, Codable, Hashable {
    case low = "Below range"
    case high = "Above range"
    case stale = "No reading"
}
