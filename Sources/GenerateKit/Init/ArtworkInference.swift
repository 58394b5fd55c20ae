/// `image:` and `symbol:` for `generate init`: the column a collection's
/// artwork comes from, so a table of covers or an emoji catalogue shows its
/// pictures without a hand-written config.
///
/// A picture column is named like one (`cover`, `thumbnail_url`, `Photo`)
/// and holds links or image paths, or holds image paths whatever its name
/// (`…png`, `…jpg`). A symbol column holds one emoji per row (an emoji
/// dataset's `char`). Decided on the profile's samples (its first distinct
/// values), as the other guesses are: `init` writes a config to edit, not a
/// verdict.
enum ArtworkInference {
  /// Words a picture column's name holds, in any case, with `_`, `-` or
  /// camelCase between words (`album_cover`, `thumbnailURL`).
  static let imageWords: Set<String> = [
    "image", "images", "img", "cover", "covers", "photo", "photos", "picture", "pictures", "pic", "thumbnail",
    "thumbnails", "thumb", "thumbs", "logo", "avatar", "icon", "poster", "artwork", "art",
  ]

  /// Sets the plan's `image` and `symbol` from the table's columns, and
  /// stops searching them: a URL's words or an emoji find nothing a
  /// visitor types.
  static func apply(to plan: inout SitePlan.Collection, shape: Schema.TableShape) {
    let columns = shape.profile.columns.filter { $0.kind == .text && $0.name != shape.key }
    if let image = columns.first(where: isImage) {
      plan.image = Naming.expression(image.name)
    }
    // The key may be the symbol: an emoji table keyed by its emoji (the
    // strangers' emoji.csv: `emoji,name,version`) shows it as the artwork.
    let symbols = shape.profile.columns.filter { $0.kind == .text }
    if let symbol = symbols.first(where: isSymbol) {
      plan.symbol = Naming.expression(symbol.name)
    }
    let taken = Set([plan.image, plan.symbol].compactMap { $0 })
    plan.search.removeAll { taken.contains($0) }
    // A key of emoji (`symbol:`) is not searched, so not weighed either.
    if let code = plan.codeKey, taken.contains(code) { plan.codeKey = nil }
  }

  /// Named like a picture and holding links or image paths, or holding
  /// image paths under any name: most samples must agree.
  static func isImage(_ column: ColumnProfile) -> Bool {
    guard !column.samples.isEmpty, column.filled * 2 >= column.rows else { return false }
    let named = words(of: column.name).contains { imageWords.contains($0) }
    let fitting = column.samples.filter {
      named ? isLink($0) || hasImageExtension($0) : hasImageExtension($0)
    }
    return fitting.count * 2 > column.samples.count
  }

  /// One emoji in every sample (not a letter, digit or punctuation: a
  /// column of codes like `A`, `B` is no symbol).
  static func isSymbol(_ column: ColumnProfile) -> Bool {
    guard column.maxLength == 1, !column.samples.isEmpty, column.filled * 2 >= column.rows else {
      return false
    }
    return column.samples.allSatisfy { sample in
      sample.count == 1 && sample.unicodeScalars.contains { !$0.isASCII && $0.properties.isEmoji }
    }
  }

  static func isLink(_ value: String) -> Bool {
    let lower = value.lowercased()
    return lower.hasPrefix("https://") || lower.hasPrefix("http://")
  }

  /// `…/cover.JPG?size=300` ends in an image extension; the query and
  /// fragment do not count.
  static func hasImageExtension(_ value: String) -> Bool {
    let path = value.split(whereSeparator: { $0 == "?" || $0 == "#" }).first ?? ""
    guard let dot = path.lastIndex(of: "."), !path.contains(where: \.isNewline) else { return false }
    return DocumentBuilder.imageExtensions.contains(path[path.index(after: dot)...].lowercased())
  }

  /// `thumbnailURL` → thumbnail, url; `Album_Cover` → album, cover.
  static func words(of name: String) -> [String] {
    var words: [String] = []
    var current = ""
    var previous: Character?
    for character in name {
      if !(character.isLetter || character.isNumber) {
        if !current.isEmpty { words.append(current) }
        current = ""
      } else {
        if character.isUppercase, let previous, previous.isLowercase, !current.isEmpty {
          words.append(current)
          current = ""
        }
        current += character.lowercased()
      }
      previous = character
    }
    if !current.isEmpty { words.append(current) }
    return words
  }
}
