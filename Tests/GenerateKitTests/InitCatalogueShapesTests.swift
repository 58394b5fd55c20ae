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
  /// foreign key sort first by name, and were the site's first
  /// collection; the elements are what a person searches.
  @Test func aSmallLookupComesAfterTheTableReferringToIt() throws {
    let folder = try DataFolder()
    defer { folder.remove() }
    let queue = try DatabaseQueue(path: folder.path("elements.db"))
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE groups (group_id INTEGER PRIMARY KEY, symbol TEXT, name TEXT)")
      try db.execute(
        sql: """
          CREATE TABLE elements (atomic_number INTEGER PRIMARY KEY, symbol TEXT, name TEXT,
            group_id INTEGER REFERENCES groups(group_id), block TEXT)
          """)
      let groups = [(1, "IA", "Alkali metals"), (2, "IIA", "Alkaline earths"), (17, "VIIA", "Halogens"), (18, "VIIIA", "Noble gases")]
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
    let found = try DataFileReader().read([folder.path("elements.db")])
    let plan = CollectionInference().infer(SchemaInference().infer(found))
    #expect(plan.collections.map(\.table) == ["elements", "groups"])
  }
}
