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

  /// An absolute-form target (what a client sends a proxy) naming another
  /// host is refused, whatever the `Host` header says: this server is not
  /// that host. One naming the loopback host and port served is answered.
  @Test(arguments: ["127.0.0.1", "0.0.0.0"])
  func refusesAbsoluteTargetsNamingAnotherHost(listeningOn address: String) async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")

    try await project.withServer(host: address) { client in
      let me = client.hostHeader
      let other = client.port == 65535 ? client.port - 1 : client.port + 1
      for target in [
        "http://evil.example/", "http://evil.example:\(client.port)/", "http://evil.example/index.html",
        "HTTP://evil.example/", "https://127.0.0.1:\(client.port)/", "http://127.0.0.1:\(other)/",
        "http://127.0.0.1/", "http://evil.example@127.0.0.1:\(client.port)/",
        "http://127.0.0.1:\(client.port)@evil.example/", "http://evil.example/__preview/events",
        "http://evil.example/__preview/reload.js",
      ] {
        for method in ["GET", "HEAD"] {
          let response = try await client.sendRaw(
            Array("\(method) \(target) HTTP/1.1\r\nHost: \(me)\r\nConnection: close\r\n\r\n".utf8))
          #expect(response.status == 421, "\(address): \(method) \(target) → \(response.status)")
          #expect(!response.text.contains("home") && !response.text.contains("event:"), "\(target)")
        }
      }
      // A scheme without a host, which the request conversion would make a
      // path of.
      for target in ["foo:/index.html", "http:/index.html", "evil.example:80"] {
        let response = try await client.sendRaw(
          Array("GET \(target) HTTP/1.1\r\nHost: \(me)\r\nConnection: close\r\n\r\n".utf8))
        #expect(response.status == 400, "\(address): \(target) → \(response.status)")
      }
      for target in ["http://127.0.0.1:\(client.port)/", "http://localhost:\(client.port)/index.html"] {
        let response = try await client.sendRaw(
          Array("GET \(target) HTTP/1.1\r\nHost: \(me)\r\nConnection: close\r\n\r\n".utf8))
        #expect(response.text == "home", "\(address): \(target) → \(response.status)")
      }
      #expect(try await client.get("/").text == "home", "still serving afterwards")
    }
  }

  /// `--host` naming loopback, in each spelling, keeps the check: the page
  /// and the reload stream answer loopback names and refuse a rebinding one.
  @Test(arguments: ["127.0.0.1", "localhost"] + (canListenOnIPv6Loopback() ? ["::1"] : []))
  func aLoopbackHostKeepsTheCheck(listeningOn address: String) async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")

    try await project.withServer(host: address) { client in
      let loopbackNames = ["127.0.0.1:\(client.port)", "localhost:\(client.port)", "[::1]:\(client.port)"]
      for host in loopbackNames {
        #expect(try await client.get("/", headers: ["Host": host]).text == "home", "\(address): \(host)")
      }
      let page = try await client.openEvents()
      _ = try await page.waitFor("event: hello")

      for host in ["evil.example:\(client.port)", "evil.example"] {
        for target in ["/", "/index.html", "/__preview/events", "/__preview/reload.js"] {
          let response = try await client.get(target, headers: ["Host": host, "Accept": "text/event-stream"])
          #expect(response.status == 403, "\(address): \(host) \(target)")
          #expect(!response.text.contains("home") && !response.text.contains("event:"), "\(host) \(target)")
        }
      }
    }
  }

  /// HTTP/1.1 needs exactly one `Host`. With two, something in front of the
  /// server could read one and this server the other; with none there is
  /// no name to check.
  @Test(arguments: ["127.0.0.1", "0.0.0.0"])
  func refusesRequestsWithTwoHostHeadersOrNone(listeningOn address: String) async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")

    try await project.withServer(host: address) { client in
      let me = client.hostHeader
      for target in ["/", "/__preview/events"] {
        let heads = [
          "GET \(target) HTTP/1.1\r\nHost: \(me)\r\nHost: evil.example\r\n",
          "GET \(target) HTTP/1.1\r\nHost: evil.example\r\nHost: \(me)\r\n",
          "GET \(target) HTTP/1.1\r\nHost: \(me)\r\nHost: \(me)\r\n",
          "GET \(target) HTTP/1.1\r\nHost: \(me)\r\nX-Padding: a\r\nhost: \(me)\r\n",
          "GET \(target) HTTP/1.1\r\n",
          "GET \(target) HTTP/1.0\r\n",
        ]
        for head in heads {
          let response = try await client.sendRaw(Array((head + "Connection: close\r\n\r\n").utf8))
          #expect(
            [400, 403].contains(response.status), "\(address): \(head.debugDescription) → \(response.status)")
          #expect(
            !response.text.contains("home") && !response.text.contains("event:"), "\(head.debugDescription)")
        }
      }
      #expect(try await client.get("/").text == "home", "one Host is fine")
    }
  }

  /// Only an address other machines can reach widens the check: they reach
  /// it by names this server cannot know.
  @Test func anyNameWhenListeningBeyondLoopback() async throws {
    let project = try PreviewFolder()
    try project.write("site/index.html", "home")

    try await project.withServer(host: "0.0.0.0") { client in
      let response = try await client.get("/", headers: ["Host": "my-laptop.local:\(client.port)"])
      #expect(response.text == "home")
    }
  }
}
