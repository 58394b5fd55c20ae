import Foundation
import GRDB
import Testing

@testable import GenerateKit

/// `init` on shapes the strangers' fourth round found read wrong, each a
/// few rows of the public dataset it came from: MASS's Cars93 (a full
/// name made of two columns, a weight among measures) and mendeleev's
/// elements.db (a small lookup table that sorts before the elements).
@Suite struct InitCatalogueShapesTests {
  func plan(_ files: [String: String]) throws -> SitePlan {
    let folder = try DataFolder(files)
    defer { folder.remove() }
    let found = try DataFileReader().read(files.keys.sorted().map(folder.path))
    return CollectionInference().infer(SchemaInference().infer(found))
  }

  static let cars93 = """
    Manufacturer,Model,Type,Price,MPG.city,Horsepower,Length,Width,Weight,Origin,Make
    Acura,Integra,Small,15.9,25,140,177,68,2705,non-USA,Acura Integra
    Acura,Legend,Midsize,33.9,18,200,195,71,3560,non-USA,Acura Legend
    Audi,90,Compact,29.1,20,172,180,67,3375,non-USA,Audi 90
    Audi,100,Midsize,37.7,19,172,193,70,3405,non-USA,Audi 100
    BMW,535i,Midsize,30,22,208,186,69,3640,non-USA,BMW 535i
    Buick,Century,Midsize,15.7,22,110,189,69,2880,USA,Buick Century
    Ford,Mustang,Sporty,15.9,22,105,180,68,2850,USA,Ford Mustang
    Ford,Crown_Victoria,Large,20.9,18,190,212,78,3950,USA,Ford Crown_Victoria
    Honda,Civic,Small,12.1,42,102,173,67,2350,non-USA,Honda Civic

    """

  /// A column whose values join two others (`Make` = `Manufacturer` + " "
  /// + `Model`) is the name a person reads, though the shorter `Model`
  /// scores better alone.
  @Test func aColumnJoiningTwoOthersIsTheTitle() throws {
    let plan = try plan(["Cars93.csv": Self.cars93])
    let cars = try #require(plan.collections.first)
    #expect(cars.title == "Make", "\(cars.titleReason)")
    #expect(cars.titleReason.contains("'Manufacturer' and 'Model' joined"))
  }

  /// `Weight` in pounds beside `Length`, `Width` and `Horsepower` is a
  /// measure, not a popularity (a `weight` alone still ranks).
  @Test func aWeightAmongMeasuresIsNoPopularity() throws {
    let plan = try plan(["Cars93.csv": Self.cars93])
    let cars = try #require(plan.collections.first)
    #expect(!(cars.popularity ?? "").contains("Weight"), "\(cars.popularity ?? "")")
    let ranked = try self.plan(["terms.csv": "term,weight\nalpha,3\nbeta,9\ngamma,1\n"])
    #expect(ranked.collections.first?.popularity == "weight")
  }

  /// mendeleev's shape: 18 `groups` that the 118 `elements` refer to by
  /// foreign key, and metadata that no table names, came before the
  /// elements, which its isotopes and oxidation states refer to: what a
  /// person searches.
  @Test func theTableMostOthersReferToComesFirst() throws {
    let folder = try DataFolder()
    defer { folder.remove() }
    let queue = try DatabaseQueue(path: folder.path("elements.db"))
    try queue.write { db in
      // Created first, as mendeleev's file holds it before its elements:
      // no table refers to it.
      try db.execute(
        sql: "CREATE TABLE propertymetadata (id INTEGER PRIMARY KEY, attribute_name TEXT, unit TEXT)")
      for (id, name, unit) in [
        (1, "atomic_radius", "pm"), (2, "density", "g/cm3"), (3, "melting_point", "K"),
      ] {
        try db.execute(sql: "INSERT INTO propertymetadata VALUES (?, ?, ?)", arguments: [id, name, unit])
      }
      try db.execute(sql: "CREATE TABLE groups (group_id INTEGER PRIMARY KEY, symbol TEXT, name TEXT)")
      try db.execute(
        sql: """
          CREATE TABLE elements (atomic_number INTEGER PRIMARY KEY, symbol TEXT, name TEXT,
            group_id INTEGER REFERENCES groups(group_id), block TEXT)
          """)
      let groups = [
        (1, "IA", "Alkali metals"), (2, "IIA", "Alkaline earths"), (17, "VIIA", "Halogens"),
        (18, "VIIIA", "Noble gases"),
      ]
      for (id, symbol, name) in groups {
        try db.execute(sql: "INSERT INTO groups VALUES (?, ?, ?)", arguments: [id, symbol, name])
      }
      let elements = [
        (1, "H", "Hydrogen", 1, "s"), (2, "He", "Helium", 18, "s"), (3, "Li", "Lithium", 1, "s"),
        (4, "Be", "Beryllium", 2, "s"), (9, "F", "Fluorine", 17, "p"), (10, "Ne", "Neon", 18, "p"),
        (11, "Na", "Sodium", 1, "s"), (12, "Mg", "Magnesium", 2, "s"), (17, "Cl", "Chlorine", 17, "p"),
        (18, "Ar", "Argon", 18, "p"),
      ]
      for (number, symbol, name, group, block) in elements {
        try db.execute(
          sql: "INSERT INTO elements VALUES (?, ?, ?, ?, ?)", arguments: [number, symbol, name, group, block])
      }
    }
    try queue.write { db in
      try db.execute(
        sql:
          "CREATE TABLE isotopes (id INTEGER PRIMARY KEY, atomic_number INTEGER REFERENCES elements(atomic_number), mass_number INTEGER, is_radioactive INTEGER)"
      )
      for (id, number, mass) in [(1, 1, 1), (2, 1, 2), (3, 2, 4), (4, 3, 7), (5, 9, 19), (6, 10, 20)] {
        try db.execute(sql: "INSERT INTO isotopes VALUES (?, ?, ?, 0)", arguments: [id, number, mass])
      }
      try db.execute(
        sql:
          "CREATE TABLE oxidationstates (id INTEGER PRIMARY KEY, atomic_number INTEGER REFERENCES elements(atomic_number), oxidation_state INTEGER)"
      )
      for (id, number, state) in [(1, 1, -1), (2, 1, 1), (3, 3, 1), (4, 9, -1), (5, 11, 1), (6, 17, 7)] {
        try db.execute(sql: "INSERT INTO oxidationstates VALUES (?, ?, ?)", arguments: [id, number, state])
      }
    }
    let found = try DataFileReader().read([folder.path("elements.db")])
    let plan = CollectionInference().infer(SchemaInference().infer(found))
    let tables = plan.collections.map(\.table)
    #expect(tables.first == "elements", "\(tables)")
    let groups = try #require(tables.firstIndex(of: "groups"), "\(tables)")
    #expect(groups > 0)
  }

  /// Books whose authors are objects (an Open Library-like export): each a
  /// `name` and the `key` that goes with it. Tags are lists of lists.
  static let books = """
    [
     {"id": 1, "title": "Good Omens", "authors": [{"name": "Terry Pratchett", "key": "OL25712A"}, {"name": "Neil Gaiman", "key": "OL1518A"}], "tags": [["fantasy", "comedy"], ["satire"]]},
     {"id": 2, "title": "Mort", "authors": [{"name": "Terry Pratchett", "key": "OL25712A"}], "tags": [["fantasy"], ["comedy"]]},
     {"id": 3, "title": "Coraline", "authors": [{"name": "Neil Gaiman", "key": "OL1518A"}], "tags": [["fantasy", "horror"]]},
     {"id": 4, "title": "Stardust", "authors": [{"name": "Neil Gaiman", "key": "OL1518A"}], "tags": [["fantasy"], ["romance"]]},
     {"id": 5, "title": "Small Gods", "authors": [{"name": "Terry Pratchett", "key": "OL25712A"}], "tags": [["fantasy", "satire"]]},
     {"id": 6, "title": "Neverwhere", "authors": [{"name": "Neil Gaiman", "key": "OL1518A"}], "tags": [["fantasy"], ["horror"]]},
     {"id": 7, "title": "Dracula", "authors": [{"name": "Bram Stoker", "key": "OL3248A"}], "tags": [["horror"], ["romance"]]},
     {"id": 8, "title": "Emma", "authors": [{"name": "Jane Austen", "key": "OL21594A"}], "tags": [["romance", "comedy"]]}
    ]
    """

  /// A list of objects that refer to other things by a name and its id
  /// (a book's authors) stays on the book: its names searched and shown,
  /// not its ids, and no table of author-per-book records; a list of
  /// lists of tags is one list, a facet like any other.
  @Test func aListOfNamedObjectsIsTheirNames() throws {
    let plan = try plan(["books.json": Self.books])
    #expect(plan.collections.map(\.table) == ["books"])
    let books = try #require(plan.collections.first)
    #expect(books.search.contains("authors.name"), "\(books.search)")
    #expect(!books.search.contains("authors.key"), "\(books.search)")
    #expect(books.facets.map(\.expression).contains("tags"), "\(books.facets)")
    #expect(!books.facets.map(\.expression).contains("authors.key"), "\(books.facets)")
  }

  /// A letter glued to digits is no word: rpart's car90 names engines
  /// (`V6`, `V8`), which read as the Czech "v" and made the site Czech.
  @Test func enginesAreNoCzechWords() {
    let titles = [
      "Acura Integra", "Audi 80", "BMW 325i", "Buick Century", "Dodge Colt", "Ford Escort", "Honda Civic",
      "Mazda 626", "Saab 900", "Volvo 240",
    ]
    let models = [
      "Oldsmobile 98 Regency V6", "Cadillac Fleetwood V8", "Pontiac Firebird V6", "Plymouth Acclaim V6",
      "Dodge Monaco V6", "GMC Safari V6",
    ]
    #expect(SiteLanguage.code(forTitles: titles, otherText: models) == "en")
  }
}
