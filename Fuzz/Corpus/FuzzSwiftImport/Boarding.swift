import Foundation

/// The ContentState is a typealias to a type in another file of the folder
/// (Boarding/BoardingState.swift); the conformance is on an extension. (The compiler requires
/// that extension in the attributes' own file: in another file it prevents synthesized
/// `init(from:)`.)
struct BoardingAttributes {
    typealias ContentState = BoardingState
    var gateChangeAllowed: Bool
    var confirmation: String
}

extension BoardingAttributes: ActivityAttributes {}
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
