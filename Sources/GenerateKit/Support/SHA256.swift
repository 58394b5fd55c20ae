import Crypto
import Foundation

/// SHA-256 for the one place a security hash is needed: the `'sha256-…'`
/// source by which a Content-Security-Policy allows the search page's inline
/// stylesheet. swift-crypto's, which the package already builds for
/// PostgreSQL's SCRAM authentication (through postgres-nio); Foundation has
/// none on Linux.
enum SHA256 {
  /// The 32-byte digest of `bytes`.
  static func digest(_ bytes: [UInt8]) -> [UInt8] {
    Array(Crypto.SHA256.hash(data: bytes))
  }

  /// The CSP source that allows an inline element whose text is `bytes`:
  /// `'sha256-<base64 of the digest>'`.
  static func cspSource(_ bytes: [UInt8]) -> String {
    "'sha256-" + Data(digest(bytes)).base64EncodedString() + "'"
  }
}
