import Foundation
import NIOConcurrencyHelpers

/// The Content-Security-Policy the preview sends: the last build's
/// (`PreparedSite.contentSecurityPolicy`), which allows the origins of the
/// remote pictures its data shows, so the preview behaves as a host sending
/// that header would. `default-src 'self'` until a build says otherwise.
final class ContentPolicy: Sendable {
  private let value = NIOLockedValueBox(PreparedSite.contentSecurityPolicy(imageOrigins: []))

  var current: String { value.withLockedValue { $0 } }

  func set(_ policy: String) { value.withLockedValue { $0 = policy } }
}
