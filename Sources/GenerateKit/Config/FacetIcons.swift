/// The glyphs a facet's `icon:` may name. The browser draws them from
/// `PATHS` in `Templates/assets/js/ui/dom.js` and `STROKED` in `ui/glyphs.js`
/// (fetched when first drawn); a test reads those files and checks the lists
/// hold the same names, so they never drift.
/// Any other name still builds (the token shows the tag glyph), with a
/// warning at the facet.
enum FacetIcons {
  static let names: [String] = [
    "calendar", "clock", "close", "folder", "genre", "globe", "person", "place", "search", "star", "tag",
  ]
}
