import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// The certificate and key a fake serves: a self-signed P-256 certificate for "localhost" and
/// 127.0.0.1, marked as a certificate authority so a client can take it as its only trust root.
struct SelfSignedIdentity {
    var certificatePEM: String
    var privateKeyPEM: String

    /// Makes a new key and certificate, valid from an hour before `now` to a day after it.
    static func make(now: Date) throws -> SelfSignedIdentity {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName {
            CommonName("localhost")
            OrganizationName("FakeAPNs")
            // Each instance its own name, so a client can trust two fakes at once (a TLS
            // library finds an issuer by its name).
            OrganizationalUnitName(UUID().uuidString)
        }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
            try ExtendedKeyUsage([.serverAuth])
            SubjectAlternativeNames([
                .dnsName("localhost"),
                .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
            ])
        }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(86_400),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions,
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        return SelfSignedIdentity(
            certificatePEM: try certificate.serializeAsPEM().pemString,
            privateKeyPEM: key.pemRepresentation
        )
    }

    /// A TLS server context serving this identity, offering only `h2` in ALPN.
    func makeServerContext(protocols: [String] = ["h2"], onlyTLS11: Bool = false) throws -> NIOSSLContext {
        let certificate = try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem)
        let privateKey = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate)],
            privateKey: .privateKey(privateKey)
        )
        configuration.minimumTLSVersion = onlyTLS11 ? .tlsv1 : .tlsv12
        if onlyTLS11 { configuration.maximumTLSVersion = .tlsv11 }
        configuration.applicationProtocols = protocols
        return try NIOSSLContext(configuration: configuration)
    }
}
