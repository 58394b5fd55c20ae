import Foundation

/// Dynamic partials (`{{>*name}}`) whose value names a template that does
/// not exist. swift-mustache renders nothing there; a static partial that
/// does not exist is an error when the templates load, and a name that
/// only the data gives is one once a page asks for it: an error at the
/// tag, naming the name and the first record whose page gave it (as Hugo
/// stops at a partial it cannot find). A value that is empty or missing
/// names nothing, and renders nothing. Noted under a lock from the
/// threads pages render on.
final class MissingPartials: @unchecked Sendable {
  /// One tag's use: its name as written, the template it named, and the
  /// partial it is in (nil: the page's own template, or a block of it).
  struct Use: Equatable {
    var tag: String
    var target: String
    var holder: String?
  }

  /// A page that asked for it: its record's order among the site's
  /// documents (-1 for a page without one), and how messages name it.
  struct Page {
    var order: Int
    var name: String

    init(_ object: Any, template: String) {
      guard let context = object as? PageContext, let record = context.page["record"] as? RecordContext,
        let index = record.documentIndex
      else {
        (order, name) = (-1, "the page '\(template)' renders")
        return
      }
      let document = record.site.documents[index]
      order = index
      name =
        "the page of " + DocumentBuilder.describe(document, in: record.site.collections[document.collection])
    }
  }

  private struct Key: Hashable {
    var template: String
    var tag: String
    var holder: String?
  }

  private struct Found {
    var target: String
    var page: Page
    var pages: Int
  }

  private let lock = NSLock()
  private var found: [Key: Found] = [:]

  func note(_ uses: [Use], template: String, page: Page) {
    lock.lock()
    defer { lock.unlock() }
    for use in uses {
      let key = Key(template: template, tag: use.tag, holder: use.holder)
      if var seen = found[key] {
        seen.pages += 1
        if page.order < seen.page.order { (seen.page, seen.target) = (page, use.target) }
        found[key] = seen
      } else {
        found[key] = Found(target: use.target, page: page, pages: 1)
      }
    }
  }

  func clear() {
    lock.lock()
    defer { lock.unlock() }
    found = [:]
  }

  /// One error per tag, at the tag, naming the first page's record.
  func diagnostics(_ tagsByName: [String: (file: String, tags: TemplateTags)], folders: String)
    -> [Diagnostic]
  {
    lock.lock()
    let entries = found.sorted {
      ($0.key.template, $0.key.holder ?? "", $0.key.tag) < ($1.key.template, $1.key.holder ?? "", $1.key.tag)
    }
    lock.unlock()
    return entries.map { key, found in
      let location = Self.location(of: key.template, holder: key.holder, in: tagsByName) {
        $0.sigil == ">" && $0.content == "*" + key.tag
      }
      let more = Self.morePages(found.pages)
      return .error(
        at: location,
        "{{>*\(key.tag)}} names partial '\(found.target)', which does not exist (no \(found.target).mustache in \(folders)), on \(found.page.name)\(more); give every record the name of a template, or leave the value empty to include nothing"
      )
    }
  }

  /// Where a tag noted on a page is written: in the partial that holds it,
  /// or in the page's own template (a block override is written there);
  /// failing those, in any template that has it; failing all, the
  /// template's file.
  static func location(
    of template: String, holder: String?, in tagsByName: [String: (file: String, tags: TemplateTags)],
    where matches: (TemplateTags.Tag) -> Bool
  ) -> SourceLocation {
    for name in [holder, template].compactMap({ $0 }) + tagsByName.keys.sorted() {
      guard let source = tagsByName[name], let tag = source.tags.tags.first(where: matches) else { continue }
      return SourceLocation(file: source.file, line: tag.line, column: tag.column)
    }
    return SourceLocation(file: tagsByName[template]?.file ?? template)
  }

  /// ", and on 2 more pages" after the first page's record, or nothing.
  static func morePages(_ pages: Int) -> String {
    pages > 1 ? ", and on \(pages - 1) more page\(pages == 2 ? "" : "s")" : ""
  }
}
