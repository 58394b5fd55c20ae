import Foundation
import Testing

@testable import GenerateKit

/// The preview server against what a hostile page (or a confused client)
/// can send it: paths out of the folder, odd methods, oversized or malformed
/// requests — sent as raw bytes, so nothing normalises them on the way.
@Suite struct PreviewSafetyTests {

  @Test func refusesEveryWayOutOfTheSiteFolder() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")
    try project.write("site/a/b/index.html", "deep")
    try project.write("secret.txt", PreviewFolder.secret)
    let secretPath = project.root.appendingPathComponent("secret.txt").path

    let targets = [
      "/../secret.txt",
      "/a/../../secret.txt",
      "/a/b/../../../secret.txt",
      "/..%2fsecret.txt",
      "/..%2Fsecret.txt",
      "/%2e%2e/secret.txt",
      "/%2E%2E/secret.txt",
      "/.%2e/secret.txt",
      "/%2e%2e%2fsecret.txt",
      "/a/%2e%2e/%2e%2e/secret.txt",
      "/%252e%252e/secret.txt",
      "/%252e%252e%252fsecret.txt",
      "/..\\secret.txt",
      "/%5c..%5csecret.txt",
      "/a\\..\\..\\secret.txt",
      "/%00",
      "/index.html%00.png",
      "/secret.txt%00",
      "/%2",
      "/%zz",
      "/%c0%ae%c0%ae/secret.txt",
      "/" + secretPath,
      "//" + secretPath,
      "/.." + secretPath,
      "http://127.0.0.1/../secret.txt",
      "../secret.txt",
      "*",
    ]
    try await project.withServer { client in
      for target in targets {
        let response = try await client.get(target)
        #expect((400..<500).contains(response.status), "\(target) → \(response.status)")
        #expect(!response.text.contains(PreviewFolder.secret), "\(target) leaked the file")
      }
      #expect(try await client.get("/").text == "home", "still serving")
    }
  }

  @Test func decodesPercentEscapesExactlyOnce() async throws {
    let project = try PreviewFolder()
    try project.write("site/%2e%2e.txt", "a file literally named %2e%2e.txt")
    try project.write("site/café.txt", "accented")

    try await project.withServer { client in
      let literal = try await client.get("/%252e%252e.txt")
      #expect(literal.status == 200)
      #expect(literal.text == "a file literally named %2e%2e.txt")
      #expect(try await client.get("/caf%C3%A9.txt").text == "accented")
      #expect(try await client.get("/caf%E9.txt").status == 400, "not UTF-8")
    }
  }

  @Test func refusesSymbolicLinksThatLeadOutside() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")
    try project.write("secret.txt", PreviewFolder.secret)
    try project.write("elsewhere/secret.txt", PreviewFolder.secret)
    try project.write("elsewhere/index.html", PreviewFolder.secret)
    try project.link("site/leak.txt", to: "../secret.txt")
    try project.link("site/absolute.txt", to: project.root.appendingPathComponent("secret.txt").path)
    try project.link("site/elsewhere", to: "../elsewhere")
    try project.link("site/home.html", to: "index.html")
    try project.write("site/.git/config", PreviewFolder.secret)

    try await project.withServer { client in
      for target in [
        "/leak.txt", "/absolute.txt", "/elsewhere/secret.txt", "/elsewhere/", "/elsewhere", "/.git/config",
      ] {
        let response = try await client.get(target)
        #expect(response.status == 404, "\(target)")
        #expect(!response.text.contains(PreviewFolder.secret), "\(target) leaked the file")
      }
      #expect(try await client.get("/home.html").text == "home", "a link inside the site is fine")
    }
  }

  @Test func allowsOnlyGetAndHead() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")

    try await project.withServer { client in
      for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
        for target in ["/", "/index.html", "/__preview/events"] {
          let response = try await client.send(method: method, target)
          #expect(response.status == 405, "\(method) \(target)")
          #expect(response.header("Allow") == "GET, HEAD", "\(method) \(target)")
        }
      }
      #expect(try await client.get("/index.html").text == "home")
    }
  }

  @Test func refusesOversizedRequestsAndKeepsServing() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")

    try await project.withServer { client in
      let longTarget = try await client.get("/" + String(repeating: "a", count: 6000))
      #expect(longTarget.status == 414)

      let hugeTarget = try await client.get("/" + String(repeating: "a", count: 100_000))
      #expect((400..<500).contains(hugeTarget.status), "\(hugeTarget.status)")

      let hugeHeader = try await client.get(
        "/", headers: ["X-Padding": String(repeating: "b", count: 100_000)])
      #expect((400..<500).contains(hugeHeader.status), "\(hugeHeader.status)")

      var manyHeaders: [String: String] = [:]
      for index in 0..<500 { manyHeaders["X-Header-\(index)"] = "v" }
      let tooMany = try await client.get("/", headers: manyHeaders)
      #expect((400..<500).contains(tooMany.status), "\(tooMany.status)")

      let garbage = try await client.sendRaw(Array("\u{1}\u{2}NOT HTTP AT ALL\r\n\r\n".utf8))
      #expect((400..<500).contains(garbage.status), "\(garbage.status)")

      #expect(try await client.get("/").text == "home", "still serving afterwards")
    }
  }

  @Test func answersOnlyLoopbackNamesAgainstDNSRebinding() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")

    try await project.withServer { client in
      for host in [
        "localhost:\(client.port)", "127.0.0.1", "127.1.2.3:\(client.port)", "[::1]:\(client.port)",
        "LOCALHOST",
      ] {
        #expect(try await client.get("/", headers: ["Host": host]).status == 200, "\(host)")
      }
      // A page on evil.example whose name now resolves to 127.0.0.1.
      for host in [
        "evil.example:\(client.port)", "evil.example", "127.0.0.1.evil.example", "localhost.evil.example",
        "[::2]:\(client.port)", "128.0.0.1", "127.0.0.1:x",
      ] {
        let response = try await client.get("/", headers: ["Host": host])
        #expect(response.status == 403, "\(host)")
        #expect(!response.text.contains("home"), "\(host)")
      }
      #expect(try await client.get("/__preview/reload.js", headers: ["Host": "evil.example"]).status == 403)
    }
  }

  @Test func anyNameWhenTheUserChoseTheAddress() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")

    try await project.withServer(hostCheck: .anyName) { client in
      let response = try await client.get("/", headers: ["Host": "my-laptop.local:\(client.port)"])
      #expect(response.text == "home")
    }
  }
}
