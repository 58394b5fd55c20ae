/// The stylesheets a template writes into its page rather than links:
/// `{{{styles.search-page}}}` is a `<style>` element holding the bundled
/// `assets/css/search-page.css`. On a slow phone a linked stylesheet is a
/// second round trip before the first paint (Slow 4G: the field showed at
/// ~500 ms, 180 ms of it after the HTML had arrived); inline, the page
/// paints from its own bytes.
///
/// The strict policy still blocks every inline style but these: the site's
/// Content-Security-Policy gains `style-src 'self' 'sha256-…'` with the hash
/// of each one (`hashes`), so a theme edit changes the policy a host must send.
/// A stylesheet that cannot sit inside a polyglot page (a `<` or `&`, which
/// the pages' XML check would read as markup) is linked instead, unhashed.
struct InlineStyles {
  /// What a template names them under.
  static let prefix = "styles."

  /// By name: the markup a `{{{styles.NAME}}}` tag writes.
  private(set) var elements: [String: String] = [:]
  /// The policy's sources for the `<style>` elements (`'sha256-…'`), sorted.
  private(set) var hashes: [String] = []

  init() {}

  /// The stylesheets `names` among the bundled `assets`, which pages link
  /// from `folder` (the assets' URL, ending in `/`).
  init(_ names: Set<String>, assets: [(path: String, bytes: [UInt8])], folder: String) {
    var hashes = Set<String>()
    for asset in assets where asset.path.hasSuffix(".css") {
      let name = Self.name(of: asset.path)
      guard names.contains(name) else { continue }
      if Self.fitsInline(asset.bytes) {
        elements[name] = "<style>" + String(decoding: asset.bytes, as: UTF8.self) + "</style>"
        hashes.insert(SHA256.cspSource(asset.bytes))
      } else {
        elements[name] = "<link rel=\"stylesheet\" href=\"\(HTMLEscape.byCharacter(folder + asset.path))\" />"
      }
    }
    self.hashes = hashes.sorted()
  }

  /// `css/search-page.css` → `search-page`.
  static func name(of path: String) -> String {
    var name = Substring(path.dropLast(".css".count))
    if name.hasPrefix("css/") { name = name.dropFirst("css/".count) }
    return String(name)
  }

  /// Text a polyglot page's `<style>` can hold as it is: no `<` or `&`,
  /// which its XML reading would take for markup, and valid UTF-8.
  static func fitsInline(_ bytes: [UInt8]) -> Bool {
    !bytes.contains(UInt8(ascii: "<")) && !bytes.contains(UInt8(ascii: "&"))
      && String(validating: bytes, as: UTF8.self) != nil
  }
}
