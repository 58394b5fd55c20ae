import Foundation

/// Which page templates had a tag find a value that `CompiledRenderer`
/// reads through swift-mustache's protocols (`RenderValue.other`: a
/// `Double`, a `Set`, a nil `Optional`, a type of a caller's own) rather
/// than by its own cases. Every template is rendered by `CompiledRenderer`
/// — there is no other renderer to fall back to — so this is the one slow
/// path left, and `--verbose` names each template that took it and why.
/// Pages are rendered on several threads; a read is noted under a lock,
/// which a page whose values are all of the usual types never takes.
final class GenericReads: @unchecked Sendable {
  /// One tag and the type of the value it found.
  struct Read: Hashable, Comparable {
    var tag: String
    var type: String

    static func < (a: Read, b: Read) -> Bool { (a.tag, a.type) < (b.tag, b.type) }
  }

  private let lock = NSLock()
  private var byTemplate: [String: Set<Read>] = [:]

  func note(_ reads: [Read], template: String) {
    lock.lock()
    defer { lock.unlock() }
    byTemplate[template, default: []].formUnion(reads)
  }

  /// Each template with its reads, by name.
  var reads: [(template: String, reads: [Read])] {
    lock.lock()
    defer { lock.unlock() }
    return byTemplate.sorted { $0.key < $1.key }.map { ($0.key, $0.value.sorted()) }
  }

  /// `--verbose`'s lines under "Rendering pages": one saying no template
  /// took the slow path, or one per template that did, naming each tag and
  /// the type it found.
  func lines(templateCount: Int) -> [String] {
    let reads = self.reads
    guard !reads.isEmpty else {
      return [
        "templates: \(templateCount), every page rendered by the compiled renderer; no value read through swift-mustache's protocols"
      ]
    }
    return reads.map { entry in
      let tags = entry.reads.map { "{{\($0.tag)}} found a \($0.type)" }.joined(separator: ", ")
      return
        "template \(entry.template): \(tags): read through swift-mustache's protocols (the same bytes, more slowly), not a type pages are made of"
    }
  }
}
