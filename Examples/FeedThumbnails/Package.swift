// swift-tools-version: 6.1
import PackageDescription

// An example client of Tessera, as any other package would be: it depends on Tessera by path
// and uses only its public API. `make test` builds it, so a change that breaks the public API
// breaks the build.
let package = Package(
  name: "FeedThumbnails",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "Tessera", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "feed-thumbnails",
      dependencies: [
        .product(name: "TesseraImages", package: "Tessera"),
        .product(name: "TesseraFeeds", package: "Tessera"),
      ],
      path: "Sources/FeedThumbnails"
    )
  ],
  swiftLanguageModes: [.v6]
)
