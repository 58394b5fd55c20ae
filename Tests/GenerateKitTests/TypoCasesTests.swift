import Foundation
import Testing

@testable import GenerateKit

/// The typo dictionary: the pieces the Swift side lists a term under against the keys the browser
/// looks up for a slip of it (`Tests/Shared/typo-cases.json`).
struct TypoCasesTests {
  struct Cases: Decodable {
    struct Meet: Decodable {
      var typed: String
      var term: String
      var key: String
    }
    var meets: [Meet]
  }

  @Test func aSlipMeetsItsTermThroughTheDictionary() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Shared/typo-cases.json")
    let meets = try JSONDecoder().decode(Cases.self, from: Data(contentsOf: url)).meets
    #expect(meets.count >= 8)
    for meet in meets {
      #expect(TypoShardStage.keys(of: meet.term).contains(meet.key), "\(meet.typed) → \(meet.term)")
    }
  }

  @Test func aTermUnderSixLettersHasNoPieces() {
    #expect(TypoShardStage.keys(of: "heath").isEmpty)
    #expect(TypoShardStage.keys(of: "python3") == ["tho", "hon", "on3"])
  }
}
