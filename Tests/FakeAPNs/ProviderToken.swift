import Crypto
import Foundation

/// A provider token (JWT) whose shape and signature checked out.
///
/// Apple's shape: header `{"alg": "ES256", "kid": <key ID>}`, claims `{"iss": <team ID>,
/// "iat": <seconds since 1970, a number>}`, signed with ES256. The JWS signature is the raw
/// r‖s pair, 64 bytes, base64url without padding, like the two other parts.
struct ProviderToken {
    var keyID: String
    var teamID: String
    var issuedAt: Date

    /// Why a token was refused, as APNs's `reason`.
    enum Refusal: String, Error {
        case missing = "MissingProviderToken"
        case invalid = "InvalidProviderToken"
        case expired = "ExpiredProviderToken"
        case badEnvironment = "BadEnvironmentKeyInToken"
    }

    /// How old `iat` may be: "more than one hour" gives `ExpiredProviderToken`.
    static let maximumAge: TimeInterval = 3600

    /// Extracts the JWT from an `authorization` value of the form `bearer <JWT>`.
    /// - Returns: The JWT, or `nil` when the value is missing or not a bearer token.
    static func jwt(fromAuthorization value: String?) -> String? {
        guard let value else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        // Trailing blanks are trimmed by hand: Foundation's trimming copies the token through
        // NSString, which the send benchmark measured as the fake's costliest step.
        var token = parts[1]
        while let last = token.last, last == " " || last == "\t" { token.removeLast() }
        return token.isEmpty ? nil : String(token)
    }

    /// Verifies a JWT against the keys the fake knows.
    /// - Throws: ``Refusal`` naming the first rule the token breaks.
    static func verify(
        _ jwt: String,
        keys: [FakeAPNs.Key],
        environment: FakeAPNs.Environment,
        now: Date
    ) throws(Refusal) -> ProviderToken {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerBytes = Base64URL.decode(parts[0]),
            let claimsBytes = Base64URL.decode(parts[1]),
            let signatureBytes = Base64URL.decode(parts[2])
        else { throw .invalid }

        guard let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes)),
            header.alg == "ES256"
        else { throw .invalid }
        guard let claims = try? JSONDecoder().decode(Claims.self, from: Data(claimsBytes)),
            claims.iat.isFinite
        else { throw .invalid }
        guard let key = keys.first(where: { $0.keyID == header.kid }) else { throw .invalid }

        guard signatureBytes.count == 64,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        else { throw .invalid }
        let signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        guard key.publicKey.isValidSignature(signature, for: signingInput) else { throw .invalid }
        guard claims.iss == key.teamID else { throw .invalid }

        let issuedAt = Date(timeIntervalSince1970: claims.iat)
        if now.timeIntervalSince(issuedAt) > maximumAge { throw .expired }
        guard key.environments.contains(environment) else { throw .badEnvironment }
        return ProviderToken(keyID: key.keyID, teamID: key.teamID, issuedAt: issuedAt)
    }

    /// The JOSE header. Decoding fails when `alg` or `kid` is missing or not a string.
    private struct Header: Decodable {
        var alg: String
        var kid: String
    }

    /// The claims. Decoding fails when `iss` is not a string or `iat` is not a JSON number
    /// (a string `iat` such as `"1700000000"` is refused).
    private struct Claims: Decodable {
        var iss: String
        var iat: Double
    }
}

/// Base64url without padding (RFC 7515 section 2), as JWS uses it.
enum Base64URL {
    /// Decodes base64url text; `nil` when it has padding or characters outside the alphabet.
    static func decode(_ text: Substring) -> [UInt8]? {
        var base64 = ""
        base64.reserveCapacity(text.utf8.count + 3)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9": base64.unicodeScalars.append(scalar)
            case "-": base64.append("+")
            case "_": base64.append("/")
            default: return nil
            }
        }
        switch base64.utf8.count % 4 {
        case 0: break
        case 2: base64 += "=="
        case 3: base64 += "="
        default: return nil
        }
        guard let data = Data(base64Encoded: base64) else { return nil }
        return Array(data)
    }
}
