import Yams

/// `strings:`: the site's own words for any of the interface's strings,
/// over the built-in catalogue of its `language:` (`Localization/UIStrings`).
extension NodeReader {
  mutating func overrideStrings(_ node: Node, in strings: inout UIStrings) {
    guard let mapping = node.mapping else {
      fail(node, "strings must be a mapping of keys to texts, such as cancel: Close")
      return
    }
    let english = Catalogue.english
    for (key, value) in mapping {
      guard let name = key.string, english.keys.contains(name) else {
        let name = key.string ?? ""
        fail(
          key,
          "unknown string '\(name)' under strings" + ClosestName.hint(name, in: english.keys)
            + " (the keys are those of Templates/strings/en.yml, listed in docs/languages.md)")
        continue
      }
      if name == "direction" {
        guard let text = value.string, ["ltr", "rtl"].contains(text) else {
          fail(value, "direction must be ltr or rtl")
          continue
        }
        strings.set(name, text)
      } else if english.counted.contains(name) {
        let forms = PluralRules.categories(strings.catalogue)
        let allowed = english.texts["\(name).other"].map(UIStrings.placeholders) ?? []
        if let text = value.string {
          // One text for every form: a language whose words do not change with the count.
          if check(text, at: value, allowed: allowed, name) {
            for form in forms { strings.set("\(name).\(form)", text) }
          }
        } else if let pairs = value.mapping {
          for (category, form) in pairs {
            guard let category = category.string, forms.contains(category) else {
              fail(
                category,
                "'\(category.string ?? "")' is not a form counts take in '\(strings.catalogue)' (its forms: \(forms.joined(separator: ", ")))"
              )
              continue
            }
            guard let text = form.string else {
              fail(form, "the form '\(category)' of \(name) must be a text")
              continue
            }
            if check(text, at: form, allowed: allowed, name) { strings.set("\(name).\(category)", text) }
          }
        } else {
          fail(
            value,
            "\(name) must be a text, or its forms by count such as { one: \"{count} song\", other: \"{count} songs\" }"
          )
        }
      } else if let text = value.string {
        if check(
          text, at: value, allowed: UIStrings.placeholders(english.texts[name] ?? ""), name, exact: true)
        {
          strings.set(name, text)
        }
      } else {
        fail(value, "\(name) under strings must be a text")
      }
    }
  }

  /// A text names only the `{placeholders}` its key fills in, and (`exact`)
  /// all of them: a count's form may leave out `{count}` ("one result"), the
  /// other texts keep every value they are given.
  private mutating func check(
    _ text: String, at node: Node, allowed: Set<String>, _ name: String, exact: Bool = false
  ) -> Bool {
    let used = UIStrings.placeholders(text)
    let known = allowed.sorted().map { "{\($0)}" }.joined(separator: ", ")
    if let first = used.subtracting(allowed).sorted().first {
      fail(
        node,
        "\(name) has {\(first)}, which it does not fill in" + (known.isEmpty ? "" : " (it fills in \(known))")
      )
      return false
    }
    if exact, let first = allowed.subtracting(used).sorted().first {
      fail(node, "\(name) must keep {\(first)} (it fills in \(known))")
      return false
    }
    return true
  }

  /// A language with no catalogue of its own, or one missing keys: English
  /// stands in, which `--strict` reports.
  func languageWarnings(_ strings: UIStrings, at location: SourceLocation?) -> [Diagnostic] {
    let at = location ?? SourceLocation(file: file)
    if strings.catalogue == "en" && PluralRules.primary(strings.language) != "en" {
      let known = Catalogue.all.keys.sorted().joined(separator: ", ")
      return [
        .warning(
          at: at,
          "no built-in interface strings for language '\(strings.language)': the page speaks English; give them under strings: (built in: \(known))"
        )
      ]
    }
    guard !strings.fellBack.isEmpty else { return [] }
    return [
      .warning(
        at: at,
        "the '\(strings.catalogue)' interface strings lack \(strings.fellBack.joined(separator: ", ")): English stands in"
      )
    ]
  }
}
