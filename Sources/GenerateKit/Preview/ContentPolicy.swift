import Foundation

/// The Content-Security-Policy the preview sends: the last build's
/// (`PreparedSite.contentSecurityPolicy`), which allows the origins of the
/// remote pictures its data shows, so the preview behaves as a host sending
/// that header would. `default-src 'self'` until a build says otherwise.
final class ContentPolicy: @unchecked Sendable {
  private let lock = NSLock()
  private var value = PreparedSite.contentSecurityPolicy(imageOrigins: [])

  var current: String { lock.withLock { value } }

  func set(_ policy: String) { lock.withLock { value = policy } }
}
