import Foundation
import Testing

@testable import GenerateKit

/// Pictures and symbols (`image:`, `symbol:`) on Fixtures/pictures: remote
/// covers on one origin, a local file copied by its content, an emoji
/// column, and the values refused with a warning at the config line.
@Suite struct ArtworkTests {
  static let config = fixturesRoot.appendingPathComponent("pictures/site.yml").path

  static func build() throws -> (files: [String: Data], summary: BuildSummary, remove: () -> Void) {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent(
      "pictures-\(UUID().uuidString)")
    var options = BuildOptions()
    options.configPath = config
    options.outputPath = output.path
    let summary = try SiteBuilder(options: options, log: { _ in }).build()
    return (try snapshotFolder(output.path), summary, { try? FileManager.default.removeItem(at: output) })
  }

  static func text(_ data: Data?) -> String { data.map { String(decoding: $0, as: UTF8.self) } ?? "" }

  @Test func documentShardsCarryTheImageAndSymbolAndTermShardsDoNot() throws {
    let (files, _, remove) = try Self.build()
    defer { remove() }
    let shards = files.filter { $0.key.hasPrefix("idx/d/") && !$0.key.contains("/f") }.map {
      Self.text($0.value)
    }
    let rows = shards.joined()
    #expect(rows.contains(#""https://covers.example/kind-of-blue.png"]"#), "\(rows)")
    let local = try #require(files.keys.first { $0.hasPrefix("images/") && $0.hasSuffix(".png") })
    #expect(rows.contains("\"\(local)\"]"), "\(rows)")
    // A symbol only: the image is "" before it.
    #expect(rows.contains(#","","💙"]"#), "\(rows)")
    #expect(rows.contains(#","","🇫🇷"]"#), "\(rows)")
    // Refused values leave the row short: no image for these.
    #expect(!rows.contains("javascript:"))
    #expect(!rows.contains("passwd"))
    let terms = files.filter { $0.key.hasPrefix("idx/t/") }.map { Self.text($0.value) }.joined()
    #expect(!terms.contains("covers.example") && !terms.contains("images/") && !terms.contains("💙"))
    let manifest = Self.text(files["idx/manifest.json"])
    #expect(manifest.contains(#""artwork":true"#))
  }

  @Test func theLocalFileIsCopiedByItsContent() throws {
    let (files, _, remove) = try Self.build()
    defer { remove() }
    let original = try Data(
      contentsOf: fixturesRoot.appendingPathComponent("pictures/data/covers/blue-train.png"))
    let copies = files.filter { $0.key.hasPrefix("images/") }
    #expect(copies.count == 1)
    let (path, bytes) = try #require(copies.first)
    #expect(bytes == original)
    #expect(path == "images/\(ContentHash.hex([UInt8](original))).png")
  }

  @Test func recordPagesShowThePictureOverTheTileAndTheSymbolInIt() throws {
    let (files, _, remove) = try Self.build()
    defer { remove() }
    let album = Self.text(files["albums/1-kind-of-blue/index.html"])
    #expect(
      album.contains(
        #"<span class="art-initial">K</span><img class="art-image" src="https://covers.example/kind-of-blue.png" alt="" width="240" height="240" loading="lazy" decoding="async"/></span>"#
      ), "\(album)")
    // The picture's column is the picture, not a detail row.
    #expect(!album.contains("<dt>Cover</dt>") && album.contains("<dt>Artist</dt>"))
    let local = Self.text(files["albums/2-blue-train/index.html"])
    #expect(local.contains(#"<img class="art-image" src="/images/"#))
    let heart = Self.text(files["emoji/1-blue-heart/index.html"])
    #expect(
      heart.contains(#"<span class="art hue-"#)
        && heart.contains(#" art-symbol" aria-hidden="true"><span class="art-initial">💙</span></span>"#),
      "\(heart)")
    // A refused value shows the initial, no image.
    let monday = Self.text(files["albums/4-blue-monday/index.html"])
    #expect(monday.contains(#"<span class="art-initial">B</span></span>"#) && !monday.contains("<img"))
  }

  @Test func theContentSecurityPolicyNamesExactlyTheImageOrigins() throws {
    let site = try preparedSite(config: Self.config)
    #expect(site.imageOrigins == ["https://covers.example"])
    #expect(site.contentSecurityPolicy == "default-src 'self'; img-src 'self' https://covers.example")
    let plain = try preparedSite(config: fixturesRoot.appendingPathComponent("records/site.yml").path)
    #expect(plain.contentSecurityPolicy == "default-src 'self'")
  }

  @Test func aJavaScriptURLAndAPathOutOfTheFolderAreWarningsAtTheImageLine() throws {
    let site = try preparedSite(config: Self.config)
    let warnings = site.warnings.map(\.description)
    // `image: cover` is on line 23 of the fixture, its value at column 12.
    let scheme = try #require(warnings.first { $0.contains("'javascript:'") }, "\(warnings)")
    #expect(
      scheme.contains(
        "site.yml:23:12: warning: image 'cover' of collection 'albums' is not shown for 1 record, which show the initial instead: its 'javascript:' URL is not an https: or http: image"
      ) && scheme.contains("the first is record 4 of albums"), "\(scheme)")
    let outside = try #require(warnings.first { $0.contains("outside the config's folder") }, "\(warnings)")
    #expect(
      outside.contains("site.yml:23:12: warning:") && outside.contains("record 5 of albums"), "\(outside)")
    #expect(warnings.count == 2, "\(warnings)")
  }

  @Test func onlyAWordBeforeAColonIsAScheme() throws {
    #expect(DocumentBuilder.scheme(of: "JavaScript:alert(1)") == "javascript")
    #expect(DocumentBuilder.scheme(of: "data:image/png;base64,AAAA") == "data")
    #expect(DocumentBuilder.scheme(of: "covers/a.png") == nil)
    #expect(DocumentBuilder.scheme(of: "C:\\covers\\a.png") == nil)
    var copied: [String: String] = [:]
    var files: (list: [(path: String, bytes: [UInt8])], paths: Set<String>) = ([], [])
    for url in ["https://", "https:///a.png", "http://exa mple.com/a.png"] {
      let result = DocumentBuilder.image(url, folder: "/nonexistent", copied: &copied, files: &files)
      #expect({ if case .failure(.malformed) = result { true } else { false } }(), "\(url)")
    }
    let port = DocumentBuilder.image(
      "https://Covers.Example:8443/a.png", folder: "/nonexistent", copied: &copied, files: &files)
    #expect((try? port.get())?.origin == "https://covers.example:8443")
  }

  @Test func initProposesImageAndSymbolColumns() {
    func column(_ name: String, _ samples: [String]) -> ColumnProfile {
      ColumnProfile(name: name, values: samples)
    }
    #expect(ArtworkInference.isImage(column("Cover_URL", ["https://a.example/1", "https://a.example/2"])))
    #expect(ArtworkInference.isImage(column("thumbnailUrl", ["https://a.example/1.jpg"])))
    #expect(ArtworkInference.isImage(column("file", ["a/b.PNG", "c.webp?x=1"])))
    #expect(!ArtworkInference.isImage(column("homepage", ["https://a.example/", "https://b.example/"])))
    #expect(!ArtworkInference.isImage(column("icon", ["😀", "🎉"])))
    #expect(ArtworkInference.isSymbol(column("char", ["😀", "👩‍👩‍👧", "🇫🇷"])))
    #expect(!ArtworkInference.isSymbol(column("grade", ["A", "B", "C"])))
    #expect(!ArtworkInference.isSymbol(column("name", ["grinning face", "party"])))
  }

  @Test func initWritesImageAndSymbolAndTheSiteBuildsWithThem() throws {
    let folder = try DataFolder([
      "emoji.csv": """
      id,name,char,category
      1,grinning face,😀,Smileys
      2,blue heart,💙,Smileys
      3,rocket,🚀,Travel
      4,flag France,🇫🇷,Flags

      """,
      "books.csv": """
      id,title,Cover_URL
      1,Dune,https://covers.example/dune.jpg
      2,Emma,https://covers.example/emma.jpg
      3,Ulysses,https://covers.example/ulysses.jpg

      """,
    ])
    defer { folder.remove() }
    let result = try folder.initialize(["books.csv", "emoji.csv"])
    #expect(result.warnings.isEmpty, "\(result.warnings)")
    let text = try folder.read("site.yml")
    #expect(text.contains("    image: Cover_URL"), "\(text)")
    #expect(text.contains("    symbol: char"), "\(text)")
    let site = try folder.prepare()
    #expect(site.imageOrigins == ["https://covers.example"])
    #expect(site.documents.contains { $0.symbol == "🇫🇷" })
  }

  /// `generate preview` sends the policy its last build computed, so remote
  /// pictures show there as on a host that sends the same header.
  @Test func thePreviewSendsTheBuildsPolicy() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")
    let policy = "default-src 'self'; img-src 'self' https://covers.example"
    try await project.withServer(
      reportingChanges: { progress in
        progress.contentSecurityPolicy(policy)
        return nil
      }
    ) { client in
      let response = try await client.get("/")
      #expect(response.status == 200)
      #expect(response.header("Content-Security-Policy") == policy)
    }
  }

  /// Only regular image files inside the config's folder are copied: a
  /// missing file, a symbolic link leading out and a file that is no image
  /// are each a warning naming the first record, and those records keep
  /// their tile.
  @Test func localFilesMustBeImagesInsideTheFolder() throws {
    let folder = try DataFolder([
      "covers/a.png": "not really a PNG, but named like one",
      "notes.txt": "text",
      "things.csv": """
      id,title,cover
      1,Alpha,covers/a.png
      2,Beta,covers/gone.png
      3,Gamma,covers/out.png
      4,Delta,notes.txt
      5,Epsilon,./covers/../covers/a.png

      """,
      "site.yml": """
      title: Things
      tables:
        things: { file: things.csv, key: id }
      collections:
        - { id: things, table: things, title: title, image: cover }

      """,
    ])
    defer { folder.remove() }
    try FileManager.default.createSymbolicLink(
      atPath: folder.path("covers/out.png"), withDestinationPath: "/etc/hostname")
    let site = try folder.prepare()
    let images = site.documents.map(\.image)
    #expect(images[0].hasPrefix("images/") && images[0].hasSuffix(".png"))
    #expect(images[4] == images[0], "the same file is one copy")
    #expect(images[1...3].allSatisfy { $0.isEmpty })
    #expect(site.imageFiles.count == 1)
    let warnings = site.warnings.map(\.message)
    #expect(warnings.count == 3, "\(warnings)")
    #expect(warnings.contains { $0.contains("does not exist") && $0.contains("record 2 of things") })
    #expect(
      warnings.contains { $0.contains("outside the config's folder") && $0.contains("record 3 of things") })
    #expect(warnings.contains { $0.contains("not a .png") && $0.contains("record 4 of things") })
    #expect(site.imageOrigins.isEmpty)
  }

  /// The validator allows a picture from an origin the site's `img-src`
  /// names, and nothing else from it: another origin, or a script from the
  /// same one, is still blocked.
  @Test func theValidatorAllowsExactlyTheImageOrigins() {
    let html = page(
      """
      <img src="https://Covers.example/a.png" alt="" />
      <img src="https://other.example/b.png" alt="" />
      <script src="https://covers.example/x.js"></script>
      """)
    let allowed = HTMLValidator(imageOrigins: ["https://covers.example"]).check(
      Array(html.utf8), path: "p.html")
    let blocked = allowed.diagnostics.map(\.message)
    #expect(blocked.count == 2, "\(blocked)")
    #expect(blocked.contains { $0.hasPrefix("src=\"https://other.example/b.png\" is blocked") })
    #expect(blocked.contains { $0.hasPrefix("src=\"https://covers.example/x.js\" is blocked") })
    let plain = HTMLValidator().check(Array(html.utf8), path: "p.html").diagnostics
    #expect(plain.count == 3)
    #expect(
      HTMLFacts.origin(of: " https://user@Covers.Example:8443/a.png?x") == "https://covers.example:8443")
    #expect(HTMLFacts.origin(of: "/images/a.png") == nil)
  }
}
