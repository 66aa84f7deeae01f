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
