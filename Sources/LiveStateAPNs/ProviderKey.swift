import Crypto
import Foundation
import LiveState

/// A token-signing key from the developer account (`AuthKey_KEYID.p8`), with its key and team ids.
///
/// The private key is never printed: `description` names the key id and team only.
public struct ProviderKey: Sendable, CustomStringConvertible {
    /// The 10-character Key ID, the JWT header's `kid`.
    public let keyID: String
    /// The 10-character Team ID, the JWT claims' `iss`.
    public let teamID: String
    /// The P-256 signing key.
    let privateKey: P256.Signing.PrivateKey

    /// Reads a key from the text of a `.p8` file (PEM, PKCS #8), or of the same key in SEC 1
    /// form (`BEGIN EC PRIVATE KEY`, as `openssl ec` writes it, with or without an
    /// `EC PARAMETERS` block before it).
    /// - Parameters:
    ///   - pem: The file's text.
    ///   - keyID: The Key ID.
    ///   - teamID: The Team ID.
    ///   - file: The file name, for errors.
    /// - Throws: `ProviderKeyError` when the ids are not 10 characters or the text is not a P-256 key.
    public init(pem: String, keyID: String, teamID: String, file: String = "the key") throws(ProviderKeyError) {
        for (name, value) in [("--key-id", keyID), ("--team-id", teamID)] {
            if let problem = Self.identifierProblem(value) {
                throw ProviderKeyError(file: file, message: "\(name) must be the 10-character id from the developer account "
                    + "(10 upper-case letters and digits, as ABC123DEFG), not '\(value)': \(problem)")
            }
        }
        switch Self.keyBlock(in: pem).flatMap(Self.der) {
        case .success(let der):
            // The library reads a key of another curve of 256 bits (secp256k1, brainpoolP256r1,
            // SM2) as if it were P-256, and signs tokens APNs refuses: its curve is asked first.
            if !Self.contains(Self.p256, in: der), Self.contains(Self.ecPublicKey, in: der) || Self.otherAlgorithm(in: der) != nil {
                throw ProviderKeyError(file: file, message: "not a P-256 private key (an APNs key is ES256): "
                    + (Self.otherAlgorithm(in: der) ?? "its curve is another") + Self.createOne)
            }
            do {
                // DER, PKCS #8 or SEC 1: the library reads either.
                privateKey = try P256.Signing.PrivateKey(derRepresentation: der)
            } catch {
                // The error's text is the library's; the key's bytes are never part of it.
                throw ProviderKeyError(file: file, message: "not a P-256 private key (an APNs key is ES256): "
                    + (Self.otherAlgorithm(in: der).map { $0 + Self.createOne } ?? "the key block does not parse"))
            }
        case .failure(let problem):
            throw ProviderKeyError(file: file, message: problem.message)
        }
        self.keyID = keyID
        self.teamID = teamID
    }

    /// What is wrong with a key or team id, or `nil`: ids are 10 upper-case letters and digits.
    static func identifierProblem(_ text: String) -> String? {
        if text.utf8.contains(where: { (0x61...0x7A).contains($0) }) { return "it has lower-case letters" }
        if let other = text.unicodeScalars.first(where: { !(0x30...0x39).contains($0.value) && !(0x41...0x5A).contains($0.value) }) {
            return "'\(Diagnostic.quoted(String(Character(other))))' is not an upper-case letter or a digit"
        }
        if text.utf8.count != 10 { return "it has \(text.utf8.count) characters" }
        return nil
    }

    /// The bytes of a key block's base64 text, read as RFC 7468 says a PEM reader should: white
    /// space anywhere between its lines ignored, any line length. (A key pasted with blanks at its
    /// lines' ends, or wrapped at 76 columns, is the same key, which `openssl` reads.)
    static func der(of block: String) -> Result<[UInt8], KeyBlockProblem> {
        let lines = block.split(whereSeparator: \.isNewline).dropFirst().dropLast()
        if lines.contains(where: { $0.hasPrefix("Proc-Type:") || $0.hasPrefix("DEK-Info:") }) {
            return .failure(KeyBlockProblem(message: encrypted))
        }
        let text = lines.joined().filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: text) else {
            return .failure(KeyBlockProblem(message: "the key block's text is not base64: the file is damaged (download the key again)"))
        }
        return .success(Array(data))
    }

    /// What an encrypted key is told: APNs's `.p8` keys are not encrypted.
    static let encrypted = "the key is encrypted, and an APNs .p8 key is not: decrypt it (openssl pkcs8 -in KEY -out AuthKey_KEYID.p8)"

    /// The object identifiers of P-256 (prime256v1) and of an EC public key's algorithm, DER.
    static let p256: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
    static let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    static let createOne = " (create a key for Apple Push Notifications service in Certificates, Identifiers & Profiles > Keys)"

    /// Whether `der` holds `oid`'s bytes.
    static func contains(_ oid: [UInt8], in der: [UInt8]) -> Bool {
        der.count >= oid.count && (0 ... der.count - oid.count).contains { der[$0 ..< $0 + oid.count].elementsEqual(oid) }
    }

    /// Which algorithm or curve a key that is not P-256 is for, found by its object identifier in
    /// `der`; `nil` when none known is there.
    static func otherAlgorithm(in der: [UInt8]) -> String? {
        let known: [(oid: [UInt8], name: String)] = [
            ([0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01], "it is an RSA key"),
            ([0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22], "it is a P-384 key"),
            ([0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x23], "it is a P-521 key"),
            ([0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x0A], "it is a secp256k1 key"),
            ([0x06, 0x09, 0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x07], "it is a brainpoolP256r1 key"),
            ([0x06, 0x08, 0x2A, 0x81, 0x1C, 0xCF, 0x55, 0x01, 0x82, 0x2D], "it is an SM2 key"),
            ([0x06, 0x03, 0x2B, 0x65, 0x70], "it is an Ed25519 key"),
        ]
        return known.first { contains($0.oid, in: der) }?.name
    }

    /// Why a text holds no usable private key block.
    struct KeyBlockProblem: Error {
        var message: String
    }

    /// The PEM block of the private key in `pem`, PKCS #8 or SEC 1, from its `BEGIN` line to its
    /// `END` line: the other blocks a file may hold (`EC PARAMETERS`) are left out, as the PEM
    /// reader takes one block. No key block, one cut short before its `END` line, and two keys
    /// (which one is meant is unknown) are each their own problem.
    static func keyBlock(in pem: String) -> Result<String, KeyBlockProblem> {
        var blocks: [String] = []
        for label in ["PRIVATE KEY", "EC PRIVATE KEY"] {
            var rest = pem.startIndex ..< pem.endIndex
            while let begin = pem.range(of: "-----BEGIN \(label)-----", range: rest) {
                guard let end = pem.range(of: "-----END \(label)-----", range: begin.upperBound ..< pem.endIndex) else {
                    return .failure(KeyBlockProblem(
                        message: "the '-----BEGIN \(label)-----' block has no '-----END \(label)-----' line: the file is cut short (download the key again)"))
                }
                blocks.append(String(pem[begin.lowerBound ..< end.upperBound]))
                rest = end.upperBound ..< pem.endIndex
            }
        }
        switch blocks.count {
        case 0:
            // Another PEM block, named for what it is.
            let others: [(label: String, message: String)] = [
                ("ENCRYPTED PRIVATE KEY", encrypted),
                ("PUBLIC KEY", "not a .p8 key: it holds a public key, and the .p8 file holds the private one"),
                ("RSA PRIVATE KEY", "not a .p8 key: it holds an RSA key, and an APNs key is EC P-256 (ES256)"),
                ("CERTIFICATE", "not a .p8 key: it holds a certificate (certificate-based connections); token-based sending needs the "
                    + "key from Certificates, Identifiers & Profiles > Keys"),
            ]
            if let other = others.first(where: { pem.contains("-----BEGIN \($0.label)-----") }) {
                return .failure(KeyBlockProblem(message: other.message))
            }
            if pem.allSatisfy(\.isWhitespace) { return .failure(KeyBlockProblem(message: "the file is empty")) }
            return .failure(KeyBlockProblem(
                message: "not a .p8 key: no '-----BEGIN PRIVATE KEY-----' line (download the key from Certificates, Identifiers & Profiles > Keys)"))
        case 1:
            return .success(blocks[0])
        default:
            return .failure(KeyBlockProblem(
                message: "the file holds \(blocks.count) private keys, and a .p8 file holds one: which key --key-id names is unknown (keep that one alone)"))
        }
    }

    /// Reads a key from a `.p8` file.
    /// - Parameters:
    ///   - path: The file.
    ///   - keyID: The Key ID.
    ///   - teamID: The Team ID.
    /// - Throws: `ProviderKeyError` when the file cannot be read or holds no P-256 key.
    public init(contentsOf path: String, keyID: String, teamID: String) throws(ProviderKeyError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ProviderKeyError(file: path, message: "no such file")
        }
        guard !isDirectory.boolValue else { throw ProviderKeyError(file: path, message: "is a directory, not a .p8 file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ProviderKeyError(file: path, message: "cannot be read")
        }
        guard data.count <= 64 * 1024, let text = String(data: data, encoding: .utf8) else {
            throw ProviderKeyError(file: path, message: "not a .p8 key: not a small UTF-8 text file")
        }
        try self.init(pem: text, keyID: keyID, teamID: teamID, file: path)
        // Apple names the download for its key's id: a token whose `kid` is another key's is
        // refused (403 InvalidProviderToken), after a round trip and with no word of which id.
        if let named = Self.keyID(namedIn: path), named != keyID, Self.isIdentifier(named) {
            throw ProviderKeyError(file: path, message: "the file is named for key \(named), and --key-id is \(keyID): APNs refuses a token "
                + "whose kid is not the id of the key that signs it (InvalidProviderToken); give --key-id \(named)")
        }
    }

    /// The key id in a file name as Apple gives it (`AuthKey_ABC123DEFG.p8`), if it is one.
    static func keyID(namedIn path: String) -> String? {
        let name = (path as NSString).lastPathComponent
        guard name.hasPrefix("AuthKey_"), name.hasSuffix(".p8") else { return nil }
        return String(name.dropFirst("AuthKey_".count).dropLast(".p8".count))
    }

    /// Creates a key from a P-256 key in memory, for tests and for keys held in a secret store.
    /// - Parameters:
    ///   - privateKey: The key.
    ///   - keyID: The Key ID.
    ///   - teamID: The Team ID.
    public init(privateKey: P256.Signing.PrivateKey, keyID: String, teamID: String) {
        self.privateKey = privateKey
        self.keyID = keyID
        self.teamID = teamID
    }

    public var description: String { "ProviderKey(keyID: \(keyID), teamID: \(teamID))" }

    /// Key and team ids are 10 upper-case letters and digits.
    static func isIdentifier(_ text: String) -> Bool {
        identifierProblem(text) == nil
    }

    /// An ES256 JWT: header `alg` and `kid` (no `typ`), claims `iss` and a numeric `iat`, the
    /// raw r‖s signature; base64url without padding.
    /// - Parameter issuedAt: The `iat`, in UNIX seconds.
    /// - Returns: The token.
    func makeToken(issuedAt: Int) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"ES256","kid":"\#(keyID)"}"#.utf8))
        let claims = Base64URL.encode(Array(#"{"iss":"\#(teamID)","iat":\#(issuedAt)}"#.utf8))
        let signingInput = header + "." + claims
        // Signing with a valid in-memory key does not fail; a failure would be a broken library.
        let signature = (try? privateKey.signature(for: Data(signingInput.utf8)).rawRepresentation) ?? Data()
        return signingInput + "." + Base64URL.encode(Array(signature))
    }
}

/// A `.p8` key that cannot be used: the file and what is wrong, never the key.
public struct ProviderKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public var file: String
    /// What is wrong.
    public var message: String

    public var description: String { "\(file): error: \(message) [bad-provider-key]" }
}

/// base64url without padding (RFC 7515 §2).
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
