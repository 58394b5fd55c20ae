import Foundation

/// Pages whose partials nested past `CompiledRenderer.maxPartialDepth`: a
/// partial that includes itself inside a section whose data never ends
/// (in Mustache a name climbs to the enclosing contexts, so a leaf without
/// `children` finds its parent's again), or a dynamic partial that names
/// itself. swift-mustache runs out of stack there; the page stops, and the
/// build fails with an error at the reference that starts the loop.
/// Noted under a lock from the threads pages render on.
final class EndlessPartials: @unchecked Sendable {
  private let lock = NSLock()
  /// Page template → the chain of partials entered when it stopped.
  private var byTemplate: [String: [String]] = [:]

  func note(_ chain: [String], template: String) {
    lock.lock()
    defer { lock.unlock() }
    if byTemplate[template] == nil { byTemplate[template] = chain }
  }

  func clear() {
    lock.lock()
    defer { lock.unlock() }
    byTemplate = [:]
  }

  var chains: [(template: String, chain: [String])] {
    lock.lock()
    defer { lock.unlock() }
    return byTemplate.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  /// One error per page template, at the reference that first enters
  /// the repeating part of the chain, naming the chain.
  func diagnostics(_ tagsByName: [String: (file: String, tags: TemplateTags)]) -> [Diagnostic] {
    chains.map { template, chain in
      let path = [template] + chain
      // The first name that comes back is where the loop starts.
      var shown = Array(path.prefix(8)) + ["…"]
      var start = 0
      for index in path.indices {
        if let again = path[(index + 1)...].firstIndex(of: path[index]) {
          start = index
          shown = Array(path[...again]) + ["…"]
          break
        }
      }
      // A block on the way (`$body` of a layout) is not a partial to name,
      // unless the loop is one of blocks.
      if !path[start].hasPrefix("$") { shown.removeAll { $0.hasPrefix("$") } }
      let holder = path[start]
      let next = start + 1 < path.count ? path[start + 1] : holder
      let source = tagsByName[holder] ?? tagsByName[template]
      let reference = source?.tags.tags.first { tag in
        next.hasPrefix("$")
          ? tag.sigil == "$" && "$" + tag.content == next
          : (tag.sigil == ">" || tag.sigil == "<") && (tag.content == next || tag.content.hasPrefix("*"))
      }
      let location = SourceLocation(
        file: source?.file ?? template, line: reference?.line ?? 1, column: reference?.column ?? 1)
      return .error(
        at: location,
        "pages of '\(template)' include partials more than \(CompiledRenderer.maxPartialDepth) deep: \(shown.joined(separator: " → ")); the section around {{> \(next)}} does not end for this data (a name a section opens climbs to an enclosing value when the current one lacks it: write {{#.children}} to look only at the current one)"
      )
    }
  }
}
