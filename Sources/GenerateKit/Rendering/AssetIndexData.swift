import Foundation

/// The part of the index every first query needs, embedded in the search
/// page as a `<script type="application/json">` block (data, which
/// `default-src 'self'` allows): the manifest, and for a small index the
/// first-letter directory files too. On a phone each of those is otherwise a
/// round trip (manifest, then directory, then the term shard) before the first
/// keystroke can be answered; embedded, the first keystroke costs one fetch.
enum AssetIndexData {
  /// Directory files are embedded while all of them together stay under this
  /// (the default catalogue's are about 4.7 KB, 3.5 KB gzip); a large index
  /// fetches the one for the typed letter instead.
  static let directoryBudget = 12 * 1024

  /// `{"idx/manifest….json": {…}, "idx/t/dir-l….json": {…}}`, keyed by the
  /// site-relative path, escaped so that it cannot end its script element
  /// (`<`, `>` and `&` only ever occur inside JSON strings, where `\u003c`
  /// means the same).
  static func json(for index: SiteIndex, directoryBudget: Int = directoryBudget) -> String {
    guard let manifest = try? index.bytes(at: index.manifestPath) else { return "{}" }
    var entries: [(String, [UInt8])] = [(index.manifestPath, lean(manifest, deferred: index.deferredPath))]
    let folder = index.manifestPath.split(separator: "/").dropLast().map { $0 + "/" }.joined()
    if let object = try? JSONSerialization.jsonObject(with: Data(manifest)) as? [String: Any],
      let directories = object["termDirectories"] as? [[String]]
    {
      let listed = directories.compactMap { pair in
        // A directory that cannot be read back is fetched by the page instead.
        pair.last.flatMap { path in (try? index.bytes(at: folder + path)).map { (folder + path, $0) } }
      }
      if listed.count == directories.count && listed.reduce(0, { $0 + $1.1.count }) <= directoryBudget {
        entries += listed
      }
    }
    var output: [UInt8] = Array("{".utf8)
    for (offset, entry) in entries.enumerated() {
      if offset > 0 { output.append(UInt8(ascii: ",")) }
      output += Array("\"\(entry.0)\":".utf8) + entry.1
    }
    output.append(UInt8(ascii: "}"))
    var escaped = ""
    escaped.reserveCapacity(output.count)
    for scalar in String(decoding: output, as: UTF8.self).unicodeScalars {
      switch scalar {
      case "<": escaped += "\\u003c"
      case ">": escaped += "\\u003e"
      case "&": escaped += "\\u0026"
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// The manifest without what its `DeferredFields` file holds again (each facet value's file,
  /// each kind's `standing`), and naming that file as `deferred`: the engine fetches it the
  /// first time a search has a token or a top hit (FORMAT.md "Deferred fields"). The manifest as
  /// it is when the index has no such file or it cannot be read back.
  static func lean(_ manifest: [UInt8], deferred: String?) -> [UInt8] {
    guard let deferred,
      var object = try? JSONSerialization.jsonObject(with: Data(manifest)) as? [String: Any],
      let facets = object["facets"] as? [[String: Any]], let kinds = object["kinds"] as? [[String: Any]]
    else { return manifest }
    object["facets"] = facets.map { facet in
      var facet = facet
      facet["values"] = (facet["values"] as? [[Any]])?.map { Array($0.prefix(2)) }
      return facet
    }
    object["kinds"] = kinds.map { kind in
      var kind = kind
      kind["standing"] = nil
      return kind
    }
    object["deferred"] = deferred
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    else { return manifest }
    return Array(data)
  }
}
