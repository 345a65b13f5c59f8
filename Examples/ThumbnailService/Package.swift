// swift-tools-version: 6.1
import PackageDescription

// Tessera's image pipeline in a server, as another package uses it: by path, public API only.
// `make test` builds both executables and runs them (scripts/build-examples.sh).
//
// - thumbnail-service: `GET /thumb?url=…&w=…&format=webp|jpeg` fetches the image through the
//   pipeline, fits it into w×w, encodes it, and answers with an ETag and Cache-Control.
// - pipeline-tour: headers, an image id, processors, held bytes and an encoder, against a
//   private origin of its own that answers 401 without the token.
let package = Package(
  name: "ThumbnailService",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "Tessera", path: "../.."),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
  ],
  targets: [
    // The route both the service and its benchmark serve.
    .target(
      name: "ThumbnailKit",
      dependencies: [
        .product(name: "TesseraImages", package: "Tessera"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      path: "Sources/ThumbnailKit"
    ),
    .executableTarget(
      name: "thumbnail-service",
      dependencies: [
        "ThumbnailKit",
        .product(name: "TesseraImages", package: "Tessera"),
        .product(name: "Hummingbird", package: "hummingbird"),
      ],
      path: "Sources/ThumbnailService"
    ),
    // thumbnails per second and p99 of the service against `vips thumbnail` per request.
    .executableTarget(
      name: "thumbnail-bench",
      dependencies: [
        "ThumbnailKit",
        .product(name: "TesseraImages", package: "Tessera"),
        .product(name: "Hummingbird", package: "hummingbird"),
      ],
      path: "Sources/ThumbnailBench"
    ),
    .executableTarget(
      name: "pipeline-tour",
      dependencies: [
        "ThumbnailKit",
        .product(name: "TesseraImages", package: "Tessera"),
        .product(name: "Hummingbird", package: "hummingbird"),
      ],
      path: "Sources/PipelineTour"
    ),
  ],
  swiftLanguageModes: [.v6]
)
