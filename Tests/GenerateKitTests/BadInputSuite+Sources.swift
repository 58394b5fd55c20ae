import Foundation

/// The data sources' safety cases: files that are not regular files, files
/// and values over `limits:`, SQLite queries that do not read rows, CSV
/// records ended by a lone carriage return, and lists where one value
/// belongs.
extension BadInputSuite {
  /// The genres table's file, marked where the config names it.
  static let markGenresFile = Edit.replace(
    configFile, "genres: { file: data/genres.csv", "genres: { file: 1️⃣data/genres.csv")

  /// A table read from an empty SQLite database (an empty file is one) by
  /// `query`; the error is at the query unless `query` holds a marker.
  static func query(_ query: String) -> [Edit] {
    let marker = query.contains("1️⃣") ? "" : "1️⃣"
    return [
      .write("data/empty.sqlite", ""),
      .replace(
        configFile, "tables:\n", "tables:\n  q: { sqlite: data/empty.sqlite, query: \(marker)\"\(query)\" }\n"
      ),
    ]
  }

  static let sourceSafetyCases: [Case] = [
    Case(
      name: "a data file that is a named pipe",
      edits: [markGenresFile, .fifo("data/genres.csv")], file: configFile,
      message: "data file 'data/genres.csv' of table 'genres' is a named pipe (FIFO), not a regular file"),
    Case(
      name: "a data file linked to /dev/zero",
      edits: [
        .remove("data/genres.csv"), .symlink("data/genres.csv", to: "/dev/zero"),
        // Should the check go, the read stops at a megabyte instead of memory.
        .replace(configFile, "title: Mini\n", "title: Mini\nlimits: { fileBytes: 1048576 }\n"),
        markGenresFile,
      ], file: configFile,
      message: "is a character device, through the symbolic link to '/dev/zero', not a regular file"),
    Case(
      name: "a data file that is a folder",
      edits: [markGenresFile, .remove("data/genres.csv"), .makeFolder("data/genres.csv")], file: configFile,
      message: "data file 'data/genres.csv' of table 'genres' is a folder, not a regular file"),
    Case(
      name: "a JSON Lines file that is a named pipe",
      edits: [
        .fifo("data/genres.jsonl"),
        .replace(configFile, "genres: { file: data/genres.csv", "genres: { file: 1️⃣data/genres.jsonl"),
      ], file: configFile, message: "is a named pipe (FIFO), not a regular file"),
    Case(
      name: "a SQLite database that is a named pipe",
      edits: [
        .fifo("data/music.sqlite"),
        .replace(
          configFile, "genres: { file: data/genres.csv", "genres: { sqlite: 1️⃣data/music.sqlite, table: genres"
        ),
      ], file: configFile,
      message: "database 'data/music.sqlite' of table 'genres' is a named pipe (FIFO), not a regular file"),
    Case(
      name: "a data file over limits.fileBytes",
      edits: [
        .replace(configFile, "title: Mini\n", "title: Mini\nlimits: { fileBytes: 20 }\n"), markGenresFile,
      ],
      file: configFile,
      message: "data file 'data/genres.csv' of table 'genres' is 27 bytes, over the limit of 20 bytes"),
    Case(
      name: "a value over limits.valueBytes",
      edits: [
        .write("data/genres.csv", "id,name\n1,Rock\n2,1️⃣\(String(repeating: "Pop", count: 100))\n3,MPB\n"),
        .replace(configFile, "title: Mini\n", "title: Mini\nlimits: { valueBytes: 100 }\n"),
      ], file: "data/genres.csv",
      message: "record 2: field 'name' is 300 bytes long, over the limit of 100 bytes (limits.valueBytes"),
    Case(
      name: "a JSON value over limits.valueBytes",
      edits: [
        .write(
          "data/genres.json",
          "[{\"id\": 1, \"name\": \"Rock\"},\n {\"id\": 2, \"name\": 1️⃣\"\(String(repeating: "x", count: 64))\"}]"
        ),
        .replace(configFile, "genres: { file: data/genres.csv", "genres: { file: data/genres.json"),
        .replace(configFile, "title: Mini\n", "title: Mini\nlimits: { valueBytes: 60 }\n"),
      ], file: "data/genres.json", message: "record 2: field 'name' is 64 bytes long"),
    Case(
      name: "limits that are not a number",
      edits: [.replace(configFile, "title: Mini\n", "title: Mini\nlimits: { fileBytes: 1️⃣lots }\n")],
      file: configFile, message: "limits.fileBytes must be a whole number of bytes"),
    Case(
      name: "an unknown limit",
      edits: [.replace(configFile, "title: Mini\n", "title: Mini\nlimits: { 1️⃣rows: 10 }\n")],
      file: configFile,
      message: "unknown key 'rows' in limits"),
    Case(
      name: "an ATTACH query", edits: query("ATTACH 'data/other.sqlite' AS other"), file: configFile,
      message: "the query must be one SELECT (or WITH … SELECT, or VALUES) that returns rows; this is ATTACH"),
    Case(
      name: "a PRAGMA writable_schema query", edits: query("PRAGMA writable_schema = 1"), file: configFile,
      message: "the query must be one SELECT (or WITH … SELECT, or VALUES) that returns rows; this is PRAGMA"),
    Case(
      name: "a PRAGMA query that returns rows", edits: query("PRAGMA table_info('x')"), file: configFile,
      message: "that returns rows; this is PRAGMA"),
    Case(
      name: "two statements in a query", edits: query("SELECT 1 AS id; 1️⃣SELECT 2 AS id"), file: configFile,
      message: "SQLite: the query holds more than one statement"),
    Case(
      name: "a long record after lines ended by a lone CR",
      edits: [.bytes("data/genres.csv", Array("id,name\r1,Rock\r2,Pop,x\r3,MPB\r".utf8))],
      file: "data/genres.csv:3:7",
      message: "record has 3 fields; the header has 2"),
    Case(
      name: "lists: naming a column the table lacks",
      edits: [
        .replace(
          configFile, "genres: { file: data/genres.csv",
          "genres: { lists: { 1️⃣nme: \";\" }, file: data/genres.csv")
      ], file: configFile, message: "table 'genres' has no column 'nme' to read as a list"),
    Case(
      name: "a JSON key that is a list",
      edits: [
        .write("data/genres.json", #"[{"id": 1, "name": "Rock"}, {"id": 1️⃣[2, 3], "name": "Pop"}]"#),
        .replace(configFile, "genres: { file: data/genres.csv", "genres: { file: data/genres.json"),
      ], file: "data/genres.json",
      message: "record 2: field 'id' is a list; the key holds one value per record"),
  ]
}
