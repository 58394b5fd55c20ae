import Foundation

/// The last asset bundle a preview made, reused while the assets it was made
/// from stay the same: a template or data edit then costs no esbuild run.
final class AssetBundleCache: @unchecked Sendable {
  private let lock = NSLock()
  private var last: (sources: [AssetFile], esbuild: String?, output: AssetBundler.Output)?

  func bundle(_ sources: [AssetFile], with bundler: AssetBundler) throws -> AssetBundler.Output {
    if let last = lock.withLock({ last }), last.esbuild == bundler.esbuild, Self.same(last.sources, sources) {
      return last.output
    }
    let output = try bundler.bundle(sources)
    lock.withLock { last = (sources, bundler.esbuild, output) }
    return output
  }

  private static func same(_ a: [AssetFile], _ b: [AssetFile]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.path == $1.path && $0.bytes == $1.bytes }
  }
}
