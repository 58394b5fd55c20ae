import Testing

@testable import GenerateKit

struct AssetMinifierTests {
  @Test func dropsCommentsAndIndentationButNotCode() {
    let source = """
      // A comment line.
      /**
       * A doc block.
       */
      export function f(url = "http://example.org/a") {
        const re = /\\/\\//g // keeps the code before a trailing comment
        return url.replace(re, '//')
      }

      """
    let expected = """
      export function f(url = "http://example.org/a") {
      const re = /\\/\\//g // keeps the code before a trailing comment
      return url.replace(re, '//')
      }

      """
    #expect(AssetMinifier.javaScript(source) == expected)
  }

  @Test func leavesMultiLineTemplateLiteralsAlone() {
    let source = "const t = `first\n  // not a comment\n    indented`\n  // gone\nx()\n"
    #expect(AssetMinifier.javaScript(source) == "const t = `first\n  // not a comment\n    indented`\nx()\n")
  }

  @Test func cssCommentsGoButStringsStay() {
    let source = "/* theme */\n:root {\n  --a: 1px; /* inline */\n  content: \"/* kept */\";\n}\n"
    #expect(AssetMinifier.css(source) == ":root {\n--a: 1px; \ncontent: \"/* kept */\";\n}\n")
  }
}
