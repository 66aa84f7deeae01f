import Foundation

struct BoardingState: Codable, Hashable {
    var gate: String
    var zone: Int8
    var boardingWindow: ClosedRange<Date>
    var status: BoardingStatus
    var seat: String? = nil
    static let placeholder = "--"
}

enum BoardingStatus: String, Codable, Hashable {
    case onTime = "on-time"
    case delayed
    case boarding
    case closed = "gate closed"
}
