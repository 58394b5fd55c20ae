import Testing

@testable import GenerateKit

/// The C boundary on its own: errors copied out with their places, the
/// element view, recorded tag offsets.
@Suite struct LibXML2Tests {
  private func parse<T>(
    _ text: String, offsets: Bool = true, _ body: (LibXML2.Document?, [LibXML2.ParseError]) -> T
  )
    -> T
  {
    Array(text.utf8).withUnsafeBufferPointer { LibXML2.parse($0, recordingElementOffsets: offsets, body) }
  }

  @Test func copiesErrorsOutWithLineColumnAndKind() {
    let errors = parse("<a>\n<b>x &y; &amp; </b>\n<c></a>") { _, errors in errors }
    let kinds = errors.map(\.kind)
    #expect(kinds.first == .undeclaredEntity)
    #expect(errors.first?.line == 2)
    #expect((6...9).contains(errors.first?.column ?? 0), "at the entity reference: \(errors)")
    #expect(kinds.contains(.structural), "\(errors)")
    #expect(errors.allSatisfy { !$0.message.hasSuffix("\n") })
  }

  @Test func eachParseHasItsOwnErrors() {
    let broken = parse("<a>&</a>") { _, errors in errors }
    #expect(broken.map(\.kind) == [.nameRequired])
    #expect(parse("<a>fine</a>") { _, errors in errors } == [])
  }

  @Test func walksElementsAndReadsAttributes() {
    let text =
      #"<r xmlns:x="urn:x"><a id="1" x:k="v" t="a&#38;b">text<![CDATA[ more]]></a><!-- c --><b/></r>"#
    parse(text) { document, errors in
      #expect(errors == [])
      guard let root = document?.root, let a = root.firstElementChild else {
        Issue.record("no tree")
        return
      }
      #expect(root.qualifiedName == "r" && root.parent == nil)
      #expect(a.qualifiedName == "a" && a.parent == root)
      #expect(a.attributeValue("t") == "a&b")
      #expect(a.attributeValue("k") == nil, "namespaced attributes are not plain ones")
      #expect(a.attributes.map { $0.hasNamespace } == [false, true, false])
      #expect(a.textContent == "text more")
      #expect(a.nextElementSibling?.qualifiedName == "b", "comments are skipped")
      #expect(a.nextElementSibling?.nextElementSibling == nil)
      // The recorded end is where the parser stood after `<a …>`.
      let bytes = Array(text.utf8)
      let tagEnd = (bytes.indices.first { bytes[$0...].starts(with: Array(">text".utf8)) } ?? -10) + 1
      #expect(
        a.startTagEnd.map { (tagEnd - 1...tagEnd).contains($0) } == true,
        "\(String(describing: a.startTagEnd))")
    }
  }

  @Test func offsetsOnlyWhenAsked() {
    parse("<a><b/></a>", offsets: false) { document, _ in
      #expect(document?.root?.startTagEnd == nil)
    }
  }

  @Test func internsNamesInTheDocumentDictionary() {
    parse(#"<html lang="en"><body/></html>"#) { document, _ in
      guard let document, let root = document.root else { return }
      #expect(document.hasDictionary)
      #expect(document.internedName("html") == root.name)
      #expect(document.internedName("lang") == root.attributes.first { _ in true }?.name)
      #expect(document.internedName("nosuch") == nil)
    }
  }
}
