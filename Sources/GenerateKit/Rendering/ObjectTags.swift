import Foundation

/// Tags that print an object — one of the values the build gives every
/// page (`{{site}}`, `{{page}}`, `{{search}}`, `{{strings}}`, a record's
/// `{{artwork}}`) or a list of them (`{{kinds}}`, `{{scopes}}`). Such a
/// value has no text a person would want: swift-mustache writes Swift's
/// description of a dictionary, its members in no fixed order; Hugo
/// writes `map[…]`. The tag writes nothing, and the build fails there,
/// naming the object's names and the first page that printed it, as a
/// misspelt name would if names were checked. A field that holds an object
/// from the data (`{{publisher}}`) is not one of these: it prints as JSON
/// (`ObjectValue`). Noted under a lock from the threads pages render on.
final class ObjectTags: @unchecked Sendable {
  /// One tag's use: its name as written, the partial it is in (nil: the
  /// page's own template, or a block of it), and the object's names, or
  /// that it is a list of objects.
  struct Use: Equatable {
    var tag: String
    var holder: String?
    var names: [String]
    var list: Bool
  }

  private struct Key: Hashable {
    var template: String
    var tag: String
    var holder: String?
  }

  private struct Found {
    var names: [String]
    var list: Bool
    var page: MissingPartials.Page
    var pages: Int
  }

  private let lock = NSLock()
  private var found: [Key: Found] = [:]

  func note(_ uses: [Use], template: String, page: MissingPartials.Page) {
    lock.lock()
    defer { lock.unlock() }
    for use in uses {
      let key = Key(template: template, tag: use.tag, holder: use.holder)
      if var seen = found[key] {
        seen.pages += 1
        if page.order < seen.page.order { seen.page = page }
        found[key] = seen
      } else {
        found[key] = Found(names: use.names, list: use.list, page: page, pages: 1)
      }
    }
  }

  func clear() {
    lock.lock()
    defer { lock.unlock() }
    found = [:]
  }

  /// One error per tag, at the tag, naming the first page's record.
  func diagnostics(_ tagsByName: [String: (file: String, tags: TemplateTags)]) -> [Diagnostic] {
    lock.lock()
    let entries = found.sorted {
      ($0.key.template, $0.key.holder ?? "", $0.key.tag) < ($1.key.template, $1.key.holder ?? "", $1.key.tag)
    }
    lock.unlock()
    return entries.map { key, found in
      let location = MissingPartials.location(of: key.template, holder: key.holder, in: tagsByName) {
        ($0.sigil == nil || $0.sigil == "{" || $0.sigil == "&") && $0.content == key.tag
      }
      let more = MissingPartials.morePages(found.pages)
      let tag = "{{\(key.tag)}}"
      let open = key.tag == "." ? nil : key.tag
      guard !found.list else {
        let example = open.map { "{{#\($0)}}{{label}}{{/\($0)}}" } ?? "a section over it"
        return .error(
          at: location,
          "\(tag) is a list of objects, which has no text to print, on \(found.page.name)\(more); open it and write their names: \(example)"
        )
      }
      let shown =
        found.names.isEmpty
        ? "none" : found.names.prefix(12).joined(separator: ", ") + (found.names.count > 12 ? ", …" : "")
      let name =
        ["title", "label", "name", "text"].first(where: found.names.contains) ?? found.names.first ?? "title"
      let example =
        open.map {
          "write one of its names, such as {{\($0).\(name)}}, or open it: {{#\($0)}}{{\(name)}}{{/\($0)}}"
        }
        ?? "write one of its names, such as {{\(name)}}"
      return .error(
        at: location,
        "\(tag) is an object (its names: \(shown)), which has no text to print, on \(found.page.name)\(more); \(example)"
      )
    }
  }
}
