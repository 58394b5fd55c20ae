/// One record of a collection, ready to index and to link to.
public struct Document: Sendable {
  /// Index into `PreparedSite.collections`.
  public var collection: Int
  public var row: Int
  public var key: String
  public var title: String
  /// 0, or the `n` of a slug that an earlier record had (`-2`, `-3`…).
  var slugSuffix: Int32 = 0
  public var subtitle: String = ""
  /// Relative to the base URL: `artists/1-ac-dc/`, or `albums/1-…/#track-1`;
  /// "" for a record linked to a search for it (`?q=…`), which
  /// `PreparedSite.url(of:)` makes from its title when read.
  public var url: String = ""
  /// 0–11: which artwork gradient the page and the results use.
  public var hue: Int
  public var popularity: Double
  /// The picture (`image:`): an `https:`/`http:` URL, or `images/<hash>.<ext>`
  /// relative to the base URL for a copied local file; "" for none.
  public var image: String = ""
  /// One grapheme cluster (`symbol:`) shown in the tile instead of the initial.
  public var symbol: String = ""
  // Its values per facet are the site's (`PreparedSite.facetValues(of:facet:)`),
  // kept flat for every document at once.

  /// The record's slug (`DocumentBuilder.slug(key:title:)`, then `-2`,
  /// `-3`… when an earlier record has it), made when read: only pages and
  /// their paths read it, and a String each was 48 bytes a record.
  public var slug: String {
    let base = DocumentBuilder.slug(key: key, title: title)
    return slugSuffix == 0 ? base : "\(base)-\(slugSuffix)"
  }
}
