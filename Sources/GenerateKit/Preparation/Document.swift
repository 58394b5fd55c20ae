/// One record of a collection, ready to index and to link to.
public struct Document: Sendable {
  /// Index into `PreparedSite.collections`.
  public var collection: Int
  public var row: Int
  public var key: String
  public var title: String
  public var slug: String
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
}
