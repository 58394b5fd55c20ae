import Foundation

/// The input limits through the real executable: each refusal exits 1 at
/// the config's line, names the limit and the file to raise it in, and
/// leaves the site as it was.
extension BadInputSuite {
  static let limitCases: [Case] = [
    Case(
      name: "a 10 MB site title",
      edits: [.replace(configFile, "title: Mini\n", "title: 1️⃣\(String(repeating: "M", count: 10 << 20))\n")],
      file: configFile,
      message:
        "'title' is 10485760 bytes long, over the limit of 65536 (limits.configValueBytes); raise limits.configValueBytes in site.yml"
    ),
    Case(
      name: "more facets than limits.facets",
      edits: [
        .replace(configFile, "title: Mini\n", "title: Mini\nlimits: { facets: 2 }\n"),
        .replace(
          configFile, "  - { id: buyer, label: Buyer, token: false }\n",
          "  - { id: buyer, label: Buyer, token: false }\n  - 1️⃣{ id: third }\n"),
      ],
      file: configFile,
      message:
        "'facets' has more than 2 items, over the limit of 2 (limits.facets); raise limits.facets in site.yml"
    ),
    Case(
      name: "a table over limits.rowsPerTable",
      edits: [
        .replace(configFile, "title: Mini\n", "title: Mini\nlimits: { rowsPerTable: 2 }\n"), markGenresFile,
      ],
      file: configFile,
      message:
        "table 'genres' has more than 2 rows; reading stopped there, over the limit of 2 (limits.rowsPerTable)"
    ),
    Case(
      name: "a value over limits.valueBytes says where to raise it",
      edits: [
        .write("data/genres.csv", "id,name\n1,Rock\n2,1️⃣\(String(repeating: "Pop", count: 100))\n3,MPB\n"),
        .replace(configFile, "title: Mini\n", "title: Mini\nlimits: { valueBytes: 100 }\n"),
      ], file: "data/genres.csv",
      message: "(limits.valueBytes); raise limits.valueBytes in site.yml (at most 1073741824) to allow more"),
  ]
}
