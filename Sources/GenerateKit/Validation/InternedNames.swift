/// The element and attribute names the checks look at.
enum KnownName: String, CaseIterable {
  // Elements (`style` and `form` are attributes too).
  case html, head, title, meta, template, img, script, style, link, object, label, output, td, th, input
  case button, fieldset, select, textarea, image, use, feImage
  // Attributes.
  case id, alt, type, rel, href, src, poster, data, action, formaction, srcset, lang, name, content
  case `for`, list, headers, form, popovertarget, commandfor
  case ariaControls = "aria-controls"
  case ariaLabelledBy = "aria-labelledby"
  case ariaDescribedBy = "aria-describedby"
  case ariaOwns = "aria-owns"
  case ariaFlowTo = "aria-flowto"
  case ariaDetails = "aria-details"
  case ariaErrorMessage = "aria-errormessage"
  case ariaActiveDescendant = "aria-activedescendant"
  /// `xlink:href`, under its own name when its prefix is undeclared (an
  /// error libxml2 reports) or, after the namespace check, when declared.
  case xlinkHref = "xlink:href"
}

/// Tells which `KnownName` a node has by comparing pointers, not text. The
/// parser interns every element and attribute name in the document's
/// dictionary, so looking each known name up there once per page turns the
/// per-node string comparisons into a small pointer-keyed table lookup.
struct InternedNames {
  private static let slotCount = 256
  private var keys = [UInt](repeating: 0, count: slotCount)
  private var values = [KnownName?](repeating: nil, count: slotCount)
  private let comparesText: Bool

  /// `intern` gives the document's own copy of a known name, or nil when
  /// the page does not use it. With `comparesText` (no dictionary: every
  /// name is a separate copy) lookups read the text instead.
  init(comparesText: Bool = false, intern: (KnownName) -> UnsafePointer<UInt8>?) {
    self.comparesText = comparesText
    guard !comparesText else { return }
    for name in KnownName.allCases {
      guard let interned = intern(name) else { continue }
      let key = UInt(bitPattern: interned)
      var slot = Self.slot(for: key)
      while keys[slot] != 0 { slot = (slot + 1) % Self.slotCount }
      keys[slot] = key
      values[slot] = name
    }
  }

  /// The names of one parsed document.
  init(_ document: LibXML2.Document) {
    self.init(comparesText: !document.hasDictionary) { name in
      // An attribute with an undeclared prefix is interned as a qualified
      // name, which the dictionary hashes differently from plain text.
      name == .xlinkHref
        ? document.internedName(prefix: "xlink", "href") : document.internedName(name.rawValue)
    }
  }

  subscript(element: LibXML2.Element) -> KnownName? { lookup(element.name) }
  subscript(attribute: LibXML2.Attribute) -> KnownName? { lookup(attribute.name) }

  func lookup(_ name: UnsafePointer<UInt8>?) -> KnownName? {
    guard let name else { return nil }
    guard !comparesText else { return KnownName(rawValue: String(cString: name)) }
    let key = UInt(bitPattern: name)
    var slot = Self.slot(for: key)
    while keys[slot] != 0 {
      if keys[slot] == key { return values[slot] }
      slot = (slot + 1) % Self.slotCount
    }
    return nil
  }

  private static func slot(for key: UInt) -> Int {
    Int(truncatingIfNeeded: ((key >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 56) % slotCount
  }
}
