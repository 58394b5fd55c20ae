import Foundation
import NIOConcurrencyHelpers

/// The last asset bundle made, for a process that builds the same site
/// again: while the assets it was made from stay the same, a template or
/// data edit costs no esbuild run.
final class AssetBundleCache: Sendable {
  private typealias Kept = (sources: [AssetFile], esbuild: String?, output: AssetBundler.Output)
  private let last = NIOLockedValueBox<Kept?>(nil)

  func bundle(_ sources: [AssetFile], with bundler: AssetBundler) throws -> AssetBundler.Output {
    if let last = last.withLockedValue({ $0 }), last.esbuild == bundler.esbuild,
      Self.same(last.sources, sources)
    {
      return last.output
    }
    let output = try bundler.bundle(sources)
    last.withLockedValue { $0 = (sources, bundler.esbuild, output) }
    return output
  }

  private static func same(_ a: [AssetFile], _ b: [AssetFile]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.path == $1.path && $0.bytes == $1.bytes }
  }
}
