import Testing

@testable import GenerateKit

/// The HTML knowledge the page rules rely on, without a parser.
@Suite struct HTMLFactsTests {
  @Test func splitsSrcsetIntoURLs() {
    #expect(HTMLFacts.srcsetURLs("/a.jpg 1x, /b.jpg 2x") == ["/a.jpg", "/b.jpg"])
    #expect(HTMLFacts.srcsetURLs("/a,1.jpg 1x,/a@2x.jpg 2x") == ["/a,1.jpg", "/a@2x.jpg"])
    // Only trailing commas end a URL; parentheses hide commas in descriptors.
    #expect(HTMLFacts.srcsetURLs("/a.jpg,/b.jpg") == ["/a.jpg,/b.jpg"])
    #expect(HTMLFacts.srcsetURLs("/a.jpg, /b.jpg,") == ["/a.jpg", "/b.jpg"])
    #expect(HTMLFacts.srcsetURLs("/a.jpg (x, y), /b.jpg") == ["/a.jpg", "/b.jpg"])
    #expect(HTMLFacts.srcsetURLs("  , ,") == [])
    #expect(HTMLFacts.srcsetURLs("") == [])
  }

  @Test func knowsEventHandlerNames() {
    func isHandler(_ name: String) -> Bool {
      Array(name.utf8 + [0]).withUnsafeBufferPointer { HTMLFacts.isEventHandler($0.baseAddress) }
    }
    #expect(isHandler("onclick") && isHandler("ONLOAD") && isHandler("onx"))
    #expect(!isHandler("on") && !isHandler("o") && !isHandler("href"))
    #expect(!HTMLFacts.isEventHandler(nil))
  }

  @Test func knowsWhichAttributesNameIDs() {
    #expect(HTMLFacts.idReferenceKind(attribute: .ariaControls, element: .button) == .list)
    #expect(
      HTMLFacts.idReferenceKind(attribute: .ariaActiveDescendant, element: .input)
        == .single(allowsEmpty: true))
    #expect(HTMLFacts.idReferenceKind(attribute: .for, element: .label) == .single(allowsEmpty: false))
    #expect(HTMLFacts.idReferenceKind(attribute: .for, element: .output) == .list)
    #expect(HTMLFacts.idReferenceKind(attribute: .for, element: .input) == nil)
    #expect(HTMLFacts.idReferenceKind(attribute: .headers, element: .td) == .list)
    #expect(HTMLFacts.idReferenceKind(attribute: .list, element: .input) == .single(allowsEmpty: false))
    #expect(HTMLFacts.idReferenceKind(attribute: .list, element: .select) == nil)
    #expect(HTMLFacts.idReferenceKind(attribute: .form, element: .textarea) == .single(allowsEmpty: false))
    #expect(HTMLFacts.idReferenceKind(attribute: .form, element: .label) == nil)
    #expect(HTMLFacts.idReferenceKind(attribute: .href, element: nil) == nil)
  }

  @Test func knowsWhatCSPBlocks() {
    #expect(HTMLFacts.hasJavaScriptScheme("JavaScript:alert(1)"))
    #expect(!HTMLFacts.hasJavaScriptScheme("/javascript:"))
    #expect(HTMLFacts.isExecutableScript(type: nil) && HTMLFacts.isExecutableScript(type: " Module "))
    #expect(!HTMLFacts.isExecutableScript(type: "application/ld+json"))
    #expect(HTMLFacts.relLoadsResource("preload stylesheet") && HTMLFacts.relLoadsResource("ICON"))
    #expect(!HTMLFacts.relLoadsResource("canonical") && !HTMLFacts.relLoadsResource("alternate"))
    #expect(HTMLFacts.isOffSite("https://cdn.example/x.css") && HTMLFacts.isOffSite(" //cdn/x.css"))
    #expect(HTMLFacts.isOffSite("data:text/css,x"))
    #expect(!HTMLFacts.isOffSite("/assets/x.css") && !HTMLFacts.isOffSite("x.css"))
  }

  @Test func tokensAndBlanks() {
    var tokens: [String] = []
    HTMLFacts.forEachToken(in: " a\tbb\n c ") { tokens.append($0) }
    #expect(tokens == ["a", "bb", "c"])
    #expect(HTMLFacts.isBlank(nil) && HTMLFacts.isBlank(" \n") && !HTMLFacts.isBlank(" x "))
  }
}
