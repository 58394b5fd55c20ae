/// What a result row shows of the searched fields, so a record found by a
/// word outside its title says where (`Composer: …`, FORMAT.md "Field
/// shards"): per kind, the fields whose name the subtitle does not already
/// print, labelled once in the manifest; per document, their texts, and
/// `""` for a text whose every term the title or subtitle already shows,
/// since a word found there is marked there. Nothing is stored: a row's
/// texts are evaluated when the row is written, as the postings' were.
struct SearchedFields {
  /// Texts longer than this many characters are cut at a word, with `…`:
  /// a row shows one line around the first match, so the end of a long
  /// description is rarely what it shows.
  static let maxLength = 160
  /// Fields a kind's rows show at most, the first searched: a row says
  /// where in a line, and a config searching thousands of columns would
  /// otherwise evaluate every one of them for every row each term shard
  /// carries.
  static let maxShown = 16

  let site: PreparedSite
  /// Per collection: the search fields shown (their numbers in
  /// `searchFields`) and their labels.
  let shown: [[(field: Int, label: String)]]

  init(site: PreparedSite) {
    self.site = site
    shown = site.collections.map(Self.shown)
  }

  /// The search fields a collection's rows show, with their labels.
  static func shown(_ collection: PreparedCollection) -> [(field: Int, label: String)] {
    let names = collection.config.search.map(\.value)
    guard names.count == collection.searchFields.count else { return [] }
    let subtitle = (collection.config.subtitle?.value ?? "").filter { !$0.isWhitespace }
    let shown = names.enumerated().compactMap { number, name in
      subtitle.contains("{{\(name)}}") ? nil : (number, label(name))
    }
    return Array(shown.prefix(maxShown))
  }

  /// The manifest's `fields` of a kind: nil when it shows none.
  static func labels(of collection: PreparedCollection) -> [String]? {
    let shown = shown(collection)
    return shown.isEmpty ? nil : shown.map(\.label)
  }

  /// A document's row `fields`: nil when no field adds anything.
  /// `subtitle`: the document's, when the caller has read it already.
  func texts(of documentIndex: Int, subtitle: String? = nil) -> [String]? {
    let fields = shown[site.documents[documentIndex].collection]
    guard !fields.isEmpty else { return nil }
    let document = site.documents[documentIndex]
    let collection = site.collections[document.collection]
    let visible = Set(TextNormalizer.terms(document.title + " " + (subtitle ?? document.subtitle)))
    var texts: [String] = []
    for (field, _) in fields {
      let text = site.evaluator.evaluate(
        collection.searchFields[field], table: collection.table, row: document.row
      )
      .text
      texts.append(Set(TextNormalizer.terms(text)).isSubset(of: visible) ? "" : Self.cut(text))
    }
    while texts.last == "" { texts.removeLast() }
    return texts.isEmpty ? nil : texts
  }

  /// `text` whole, or its first `maxLength` characters up to the last space, and `…`.
  static func cut(_ text: String) -> String {
    let text = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    guard text.count > maxLength else { return text }
    let head = text.prefix(maxLength)
    let end = head.lastIndex(where: \.isWhitespace) ?? head.endIndex
    return String(head[..<end]) + "…"
  }

  /// A field's name as a label: `composer` → `Composer`, `artistNames` or
  /// `artist_names` → `Artist names`; a last word `title` or `name` goes
  /// (`albumTitle` → `Album`, `artist_id.name` → `Artist id`).
  static func label(_ name: String) -> String {
    var words: [String] = []
    var word = ""
    var previous: Character?
    for character in name {
      if character.isLetter || character.isNumber {
        if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
          words.append(word)
          word = ""
        }
        word.append(character)
      } else if !word.isEmpty {
        words.append(word)
        word = ""
      }
      previous = character
    }
    if !word.isEmpty { words.append(word) }
    words = words.filter { !$0.isEmpty }.map { $0.lowercased() }
    // `albumTitle` is the album's title: the row says "Album".
    if words.count > 1, let last = words.last, last == "title" || last == "name" { words.removeLast() }
    let text = words.joined(separator: " ")
    return text.prefix(1).uppercased() + text.dropFirst()
  }
}
