import Crypto
import Foundation
import Testing
@testable import LiveStateAPNs
import LiveStateTooling

/// A clock tests move by hand: time passing moves its wall clock and its steady one; setting
/// the wall clock (`stepWall`) moves the wall one alone.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    private var elapsed: TimeInterval = 0

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = start }

    var now: Date { lock.withLock { current } }
    func advance(minutes: Double) {
        lock.withLock {
            current = current.addingTimeInterval(minutes * 60)
            elapsed += minutes * 60
        }
    }
    func stepWall(minutes: Double) { lock.withLock { current = current.addingTimeInterval(minutes * 60) } }
    var function: @Sendable () -> Date { { [self] in now } }
    /// Both clocks, as a sender reads them.
    var sendClock: PushClock { PushClock(now: function, elapsed: { [self] in lock.withLock { elapsed } }) }
}

@Suite struct ProviderTokenTests {
    static let keyID = "ABC123DEFG"
    static let teamID = "TEAM123456"

    /// The three parts of a JWT, decoded.
    static func parts(_ token: String) throws -> (header: [String: Any], claims: [String: Any], signature: Data, input: String) {
        let pieces = token.split(separator: ".").map(String.init)
        try #require(pieces.count == 3)
        func decode(_ text: String) throws -> Data {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            return try #require(Data(base64Encoded: base64))
        }
        let header = try #require(try JSONSerialization.jsonObject(with: decode(pieces[0])) as? [String: Any])
        let claims = try #require(try JSONSerialization.jsonObject(with: decode(pieces[1])) as? [String: Any])
        return (header, claims, try decode(pieces[2]), pieces[0] + "." + pieces[1])
    }

    @Test func tokenHasAlgAndKidButNoTypAndANumericIatSignedRawRS() throws {
        let privateKey = P256.Signing.PrivateKey()
        let key = ProviderKey(privateKey: privateKey, keyID: Self.keyID, teamID: Self.teamID)
        let token = key.makeToken(issuedAt: 1_800_000_000)
        let (header, claims, signature, input) = try Self.parts(token)
        #expect(header.keys.sorted() == ["alg", "kid"])
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == Self.keyID)
        #expect(claims.keys.sorted() == ["iat", "iss"])
        #expect(claims["iss"] as? String == Self.teamID)
        #expect((claims["iat"] as? NSNumber)?.intValue == 1_800_000_000)
        #expect(!(claims["iat"] is String))
        #expect(signature.count == 64)
        let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: signature)
        #expect(privateKey.publicKey.isValidSignature(ecdsa, for: Data(input.utf8)))
        #expect(!token.contains("="))
    }

    @Test func oneTokenIsSharedByConcurrentSendsAndRenewedAfterFiftyMinutes() async {
        let clock = TestClock()
        let cache = ProviderTokenCache(key: ProviderKey(privateKey: .init(), keyID: Self.keyID, teamID: Self.teamID), clock: clock.function)
        let tokens = await withTaskGroup(of: String.self) { group in
            for _ in 0..<200 { group.addTask { await cache.token(for: .sandbox) } }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(tokens.count == 1)
        #expect(await cache.mintedCount == 1)
        clock.advance(minutes: 49)
        #expect(await cache.token(for: .sandbox) == tokens.first)
        clock.advance(minutes: 1)
        #expect(await cache.token(for: .sandbox) != tokens.first)
        #expect(await cache.mintedCount == 2)
        // Each environment has its own token.
        _ = await cache.token(for: .production)
        #expect(await cache.mintedCount == 3)
    }

    @Test func expiredProviderTokenRenewsOnlyATokenTwentyMinutesOld() async {
        let clock = TestClock()
        let cache = ProviderTokenCache(key: ProviderKey(privateKey: .init(), keyID: Self.keyID, teamID: Self.teamID), clock: clock.function)
        let first = await cache.token(for: .sandbox)
        clock.advance(minutes: 19)
        // APNs calling a 19-minute-old token expired means this clock is wrong: no new token.
        #expect(await cache.renew(after: first, for: .sandbox) == false)
        #expect(await cache.token(for: .sandbox) == first)
        clock.advance(minutes: 1)
        #expect(await cache.renew(after: first, for: .sandbox) == true)
        let second = await cache.token(for: .sandbox)
        #expect(second != first)
        // A second send that saw the same rejection uses the new token without minting again.
        #expect(await cache.renew(after: first, for: .sandbox) == true)
        #expect(await cache.mintedCount == 2)
    }

    @Test func tooManyProviderTokenUpdatesStopsMintingForTwentyMinutes() async {
        let clock = TestClock()
        let cache = ProviderTokenCache(key: ProviderKey(privateKey: .init(), keyID: Self.keyID, teamID: Self.teamID), clock: clock.function)
        let first = await cache.token(for: .sandbox)
        clock.advance(minutes: 55)
        let second = await cache.token(for: .sandbox)
        let until = await cache.suspendMinting(for: .sandbox)
        #expect(until == clock.now.addingTimeInterval(20 * 60))
        clock.advance(minutes: 10)
        #expect(await cache.renew(after: second, for: .sandbox) == false)
        #expect(await cache.token(for: .sandbox) == second)
        clock.advance(minutes: 40)
        // Past 50 minutes and past the suspension: a new token again.
        #expect(await cache.token(for: .sandbox) != second)
        #expect(first != second)
    }

    /// A token's age is measured on a clock that does not step: set back an hour, the wall clock
    /// kept a token past APNs's hour (its age stayed under 50 minutes); set forward, it renewed
    /// one at once. Its `iat` is the wall clock's.
    @Test func settingTheWallClockNeitherKeepsATokenPastItsHourNorRenewsItEarly() async throws {
        let clock = TestClock()
        let cache = ProviderTokenCache(key: ProviderKey(privateKey: .init(), keyID: Self.keyID, teamID: Self.teamID),
                                       clock: clock.sendClock)
        let first = await cache.token(for: .sandbox)
        clock.stepWall(minutes: 120)
        #expect(await cache.token(for: .sandbox) == first)
        clock.stepWall(minutes: -180)
        clock.advance(minutes: 50)
        let second = await cache.token(for: .sandbox)
        #expect(second != first)
        let claims = try Self.parts(second).claims
        #expect(claims["iat"] as? Int == Int(clock.now.timeIntervalSince1970))
        #expect(await cache.mintedCount == 2)
        // Minted just now by both clocks: APNs calling it expired blames this machine's clock.
        #expect(await cache.renew(after: second, for: .sandbox) == false)
        // A wall clock set right (forward an hour) since the token was minted made its `iat` an
        // hour old: APNs's ExpiredProviderToken is cured by a new token, not blamed on the clock.
        clock.stepWall(minutes: 60)
        #expect(await cache.renew(after: second, for: .sandbox) == true)
        #expect(await cache.mintedCount == 3)
    }

    /// One test key (made for this test alone) as `openssl ecparam -genkey` writes it, SEC 1
    /// after an `EC PARAMETERS` block, and as `openssl pkcs8 -topk8` makes it of that.
    static let sec1 = """
        -----BEGIN EC PARAMETERS-----
        BggqhkjOPQMBBw==
        -----END EC PARAMETERS-----
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEIN7+z+318T88XQonkGKlieBayuIQlut9886nqFu4NOiZoAoGCCqGSM49
        AwEHoUQDQgAEqvDy+sekaOO9r0YBj13NjsCqEGWB/yxJ5iQkWdOY5plEGY13UwgU
        VhwNsCeDCJ43z83WyGKwNeSJitA7B3PeKg==
        -----END EC PRIVATE KEY-----

        """
    static let pkcs8 = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg3v7P7fXxPzxdCieQ
        YqWJ4FrK4hCW633zzqeoW7g06JmhRANCAASq8PL6x6Ro472vRgGPXc2OwKoQZYH/
        LEnmJCRZ05jmmUQZjXdTCBRWHA2wJ4MInjfPzdbIYrA15ImK0DsHc94q
        -----END PRIVATE KEY-----

        """

    /// A key converted with `openssl ec` (SEC 1) is the same key as its `.p8`: read either way,
    /// it signs tokens the other's public key verifies.
    @Test func aSEC1KeyIsReadAsItsP8IsRead() throws {
        let fromSEC1 = try ProviderKey(pem: Self.sec1, keyID: Self.keyID, teamID: Self.teamID)
        let fromP8 = try ProviderKey(pem: Self.pkcs8, keyID: Self.keyID, teamID: Self.teamID)
        #expect(fromSEC1.privateKey.publicKey.rawRepresentation == fromP8.privateKey.publicKey.rawRepresentation)
        let without = Self.sec1.components(separatedBy: "-----END EC PARAMETERS-----\n")[1]
        #expect(try ProviderKey(pem: without, keyID: Self.keyID, teamID: Self.teamID).privateKey.rawRepresentation
            == fromP8.privateKey.rawRepresentation)
        let message = Data("header.claims".utf8)
        let signature = try fromSEC1.privateKey.signature(for: message)
        #expect(fromP8.privateKey.publicKey.isValidSignature(signature, for: message))
        // The parameters alone are no key.
        let parameters = Self.sec1.components(separatedBy: "-----BEGIN EC PRIVATE KEY-----")[0]
        #expect(throws: ProviderKeyError.self) { try ProviderKey(pem: parameters, keyID: Self.keyID, teamID: Self.teamID) }
    }

    /// A key's base64 is read as RFC 7468 asks, as `openssl` reads it: blanks at the ends of its
    /// lines and lines of another length (76, as `base64` wraps) are the same key.
    @Test func aKeyWithBlanksAtItsLinesEndsOrOtherLineLengthsIsTheSameKey() throws {
        let key = try ProviderKey(pem: Self.pkcs8, keyID: Self.keyID, teamID: Self.teamID)
        let blanks = Self.pkcs8.split(separator: "\n").map { $0 + " \t" }.joined(separator: "\n")
        let body = Self.pkcs8.split(separator: "\n").dropFirst().dropLast().joined()
        let wrapped = "-----BEGIN PRIVATE KEY-----\n" + stride(from: 0, to: body.count, by: 76).map {
            String(body.dropFirst($0).prefix(76))
        }.joined(separator: "\n") + "\n-----END PRIVATE KEY-----\n"
        for text in [blanks, wrapped] {
            #expect(try ProviderKey(pem: text, keyID: Self.keyID, teamID: Self.teamID).privateKey.rawRepresentation == key.privateKey.rawRepresentation)
        }
    }

    /// A file that holds another kind of key, or none, says which (it was "no BEGIN PRIVATE KEY
    /// line, download the key" for an encrypted key, and "does not parse" for an RSA one); a file
    /// named for another key id than `--key-id` is refused before APNs answers 403.
    @Test func keysOfAnotherKindAndAnotherIdSayWhich() throws {
        func error(_ pem: String, keyID: String = Self.keyID) -> String {
            do { _ = try ProviderKey(pem: pem, keyID: keyID, teamID: Self.teamID); return "" } catch { return error.message }
        }
        let p384 = P384.Signing.PrivateKey().pemRepresentation
        #expect(error(p384).hasPrefix("not a P-256 private key (an APNs key is ES256): it is a P-384 key"), "\(error(p384))")
        let rsa = "-----BEGIN PRIVATE KEY-----\nMA8wDQYJKoZIhvcNAQEBBQA=\n-----END PRIVATE KEY-----\n"
        #expect(error(rsa).hasPrefix("not a P-256 private key (an APNs key is ES256): it is an RSA key"), "\(error(rsa))")
        #expect(error("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n").hasPrefix("the key is encrypted"))
        #expect(error("-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nAAAA\n-----END EC PRIVATE KEY-----\n")
            .hasPrefix("the key is encrypted"))
        #expect(error(P256.Signing.PrivateKey().publicKey.pemRepresentation).contains("it holds a public key"))
        #expect(error("-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n").contains("it holds an RSA key"))
        #expect(error(" \n") == "the file is empty")
        // Keys of other 256-bit curves: the library read them as P-256 and signed tokens APNs
        // refuses (found by the review of this stop's diff).
        let secp256k1 = """
            -----BEGIN PRIVATE KEY-----
            MIGEAgEAMBAGByqGSM49AgEGBSuBBAAKBG0wawIBAQQgj7XfkNMBUFfbwVnBU/Pi
            qTanM9k+GgSBG12vwcavujuhRANCAARp02kSZdwUMziE3rKnTkR3MsEuLT2f5xN9
            ENItYZVKYxp3kFfLo4vppADZLX21nScsS4reQyShdkIy11U/RAU+
            -----END PRIVATE KEY-----
            """
        let brainpool = """
            -----BEGIN PRIVATE KEY-----
            MIGIAgEAMBQGByqGSM49AgEGCSskAwMCCAEBBwRtMGsCAQEEIH0rA5v7NdTnKDRs
            q3NpH8aUOWTu951J8tAHmw/Fxrb5oUQDQgAEGxrI0KYMREQ1CnmuKELFGrb5AkU/
            LOsM45xmJfMfLncsAnkh3YA8K5LTlOH03qRZrKVGuVzJeIwepX0TTy5NyA==
            -----END PRIVATE KEY-----
            """
        #expect(error(secp256k1).hasPrefix("not a P-256 private key (an APNs key is ES256): it is a secp256k1 key"), "\(error(secp256k1))")
        #expect(error(brainpool).hasPrefix("not a P-256 private key (an APNs key is ES256): it is a brainpoolP256r1 key"), "\(error(brainpool))")
        #expect(error("-----BEGIN PRIVATE KEY-----\n%%%%\n-----END PRIVATE KEY-----\n").hasPrefix("the key block's text is not base64"))
        #expect(error(Self.pkcs8, keyID: "abc123defg").hasSuffix("not 'abc123defg': it has lower-case letters"))
        #expect(error(Self.pkcs8, keyID: "ABC123DEF").hasSuffix("it has 9 characters"))
        #expect(error(Self.pkcs8, keyID: "ABC123DEF-").hasSuffix("'-' is not an upper-case letter or a digit"))
        #expect(error(Self.pkcs8, keyID: "ABC123DEFÉ").hasSuffix("'É' is not an upper-case letter or a digit"), "\(error(Self.pkcs8, keyID: "ABC123DEFÉ"))")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let named = folder.appendingPathComponent("AuthKey_ZZZ9999999.p8")
        try Data(Self.pkcs8.utf8).write(to: named)
        do {
            _ = try ProviderKey(contentsOf: named.path, keyID: Self.keyID, teamID: Self.teamID)
            Issue.record("a file named for another key id was taken")
        } catch {
            #expect(error.message == "the file is named for key ZZZ9999999, and --key-id is \(Self.keyID): APNs refuses a token whose kid "
                + "is not the id of the key that signs it (InvalidProviderToken); give --key-id ZZZ9999999")
        }
        #expect(try ProviderKey(contentsOf: named.path, keyID: "ZZZ9999999", teamID: Self.teamID).keyID == "ZZZ9999999")
    }

    @Test func unreadableOrMalformedKeysSayWhatIsWrongAndNeverPrintTheKey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livestate-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func error(_ body: () throws(ProviderKeyError) -> ProviderKey) -> String {
            do { _ = try body(); return "" } catch { return error.description }
        }
        #expect(error { () throws(ProviderKeyError) in try ProviderKey(contentsOf: folder.path + "/missing.p8", keyID: Self.keyID, teamID: Self.teamID) }
            .hasSuffix("missing.p8: error: no such file [bad-provider-key]"))
        #expect(error { () throws(ProviderKeyError) in try ProviderKey(contentsOf: folder.path, keyID: Self.keyID, teamID: Self.teamID) }
            .contains("is a directory"))
        let garbage = folder.appendingPathComponent("garbage.p8")
        try Data("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8).write(to: garbage)
        #expect(error { () throws(ProviderKeyError) in try ProviderKey(contentsOf: garbage.path, keyID: Self.keyID, teamID: Self.teamID) }
            .contains("not a P-256 private key"))
        let certificate = folder.appendingPathComponent("cert.pem")
        try Data("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8).write(to: certificate)
        #expect(error { () throws(ProviderKeyError) in try ProviderKey(contentsOf: certificate.path, keyID: Self.keyID, teamID: Self.teamID) }
            .contains("not a .p8 key"))
        let pem = P256.Signing.PrivateKey().pemRepresentation
        #expect(error { () throws(ProviderKeyError) in try ProviderKey(pem: pem, keyID: "short", teamID: Self.teamID) }.contains("--key-id must be"))
        // Found by the hostile-input sweep: a key cut short was said to have no BEGIN line, and
        // of two keys the second was ignored without a word.
        let cut = String(Self.pkcs8.prefix(80))
        #expect(error { () throws(ProviderKeyError) in try ProviderKey(pem: cut, keyID: Self.keyID, teamID: Self.teamID) }
            .contains("error: the '-----BEGIN PRIVATE KEY-----' block has no '-----END PRIVATE KEY-----' line: the file is cut short"))
        #expect(error { () throws(ProviderKeyError) in try ProviderKey(pem: Self.pkcs8 + pem, keyID: Self.keyID, teamID: Self.teamID) }
            .contains("error: the file holds 2 private keys, and a .p8 file holds one"))
        #expect(error { () throws(ProviderKeyError) in try ProviderKey(pem: Self.pkcs8 + Self.sec1, keyID: Self.keyID, teamID: Self.teamID) }
            .contains("holds 2 private keys"))
        let key = try ProviderKey(pem: pem, keyID: Self.keyID, teamID: Self.teamID)
        #expect(!"\(key)".contains("PRIVATE"))
        #expect("\(key)" == "ProviderKey(keyID: ABC123DEFG, teamID: TEAM123456)")
    }
}
