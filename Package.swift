// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "generate",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "generate", targets: ["generate"]),
    .library(name: "GenerateKit", targets: ["GenerateKit"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CLibXML2",
      pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"])]
    ),
    // libyaml's event parser, whose symbols Yams links in (Config/YAMLExpansion).
    .systemLibrary(name: "CYamlEvents"),
    .systemLibrary(
      name: "CStemmer",
      providers: [.apt(["libstemmer-dev"])]
    ),
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    .target(
      name: "GenerateKit",
      dependencies: [
        "CLibXML2",
        "CZlib",
        "CStemmer",
        "CYamlEvents",
        .product(name: "Yams", package: "Yams"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      exclude: ["Index/FORMAT.md"],
      plugins: ["EmbedTheme"]
    ),
    // Writes Templates/ as Swift source at build time: the built-in theme.
    .executableTarget(name: "ThemeEmbedder"),
    .plugin(
      name: "EmbedTheme",
      capability: .buildTool(),
      dependencies: ["ThemeEmbedder"]
    ),
    .executableTarget(
      name: "generate",
      dependencies: [
        "GenerateKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(
      name: "GenerateKitTests",
      dependencies: [
        "GenerateKit",
        .product(name: "PropertyBased", package: "swift-property-based"),
        // The oracle the template parser and renderer are compared with.
        .product(name: "Mustache", package: "swift-mustache"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Hummingbird", package: "hummingbird"),
      ],
      exclude: ["Fixtures"]
    ),
  ]
)
