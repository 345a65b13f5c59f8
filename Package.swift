// swift-tools-version: 6.2
// Supported: Swift 6.2 and later (this line; built and tested with 6.3.1), Swift 6 language
// mode, on Linux with glibc (x86_64; tested on Debian 12). Not 6.1: the sources use 6.2's
// `@concurrent` and `weak let`, and the lowest versions of swift-log, AsyncHTTPClient and
// swift-service-lifecycle allowed below declare tools 6.2. The system libraries come from
// the distribution: on Debian `apt install libvips-dev libexempi-dev pkg-config` (libvips-dev
// brings libpng-dev, libjpeg-dev and zlib1g-dev; scripts/library-test.sh builds a package
// that depends on Tessera in a minimal Debian 12 root with exactly the README's list).
// `platforms:` can only name Apple OSes: macOS 14 there is a floor for SwiftPM, not a tested
// platform.
import PackageDescription

let package = Package(
  name: "Tessera",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "tessera", targets: ["tessera"]),
    .executable(name: "tessera-loader-bench", targets: ["tessera-loader-bench"]),
    .library(name: "TesseraImages", targets: ["TesseraImages"]),
    .library(name: "TesseraURLSession", targets: ["TesseraURLSession"]),
    .library(name: "TesseraCollection", targets: ["TesseraCollection"]),
    .library(name: "TesseraImageBinding", targets: ["TesseraImageBinding"]),
    .library(name: "TesseraFeeds", targets: ["TesseraFeeds"]),
    .library(name: "TesseraPhotoLibrary", targets: ["TesseraPhotoLibrary"]),
    .library(name: "TesseraServer", targets: ["TesseraServer"]),
    .library(name: "TesseraTerminal", targets: ["TesseraTerminal"]),
    .library(name: "TesseraSimulation", targets: ["TesseraSimulation"]),
    .library(name: "TesseraGeometry", targets: ["TesseraGeometry"]),
    .library(name: "TesseraImageSynthesis", targets: ["TesseraImageSynthesis"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    // Insecure.MD5 names freedesktop.org thumbnails (md5 of the file's URI).
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    // HTTPField.Name in the server's tests (Hummingbird re-exports the message types only).
    .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    // ImagePipelineService: a pipeline shut down with the service group it runs in.
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    // `make docs`: the DocC catalogs of the library targets (a command plugin, never linked).
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // Helpers every module shares (`package` access, no product): one home instead of copies.
    // Also `FeedLimits` (public, re-exported by TesseraFeeds and TesseraPhotoLibrary): the
    // bounds both check what comes from outside against.
    .target(
      name: "TesseraUtilities", dependencies: ["CJPEG", "CPNG", "CProcess", "TesseraGeometry"]),
    // What a file format is, one home: the table of formats (extensions, leading bytes, the
    // libvips loader that may read it and from where, RAW/video) that the walk, the feeds,
    // the decoder's allow-list and the signature check read, and the parsers behind it
    // (EXIF/TIFF, JPEG segments, RAW previews). `package` access, no product.
    .target(
      name: "TesseraPhotoFormats",
      dependencies: ["CExempi", "CVipsShim", "TesseraGeometry", "TesseraUtilities"]),
    // Exempi (Debian: libexempi-dev), Adobe's XMP Toolkit behind a C API: XMP read as the
    // RDF/XML it is, namespaces and all, and (for culling) written back keeping every property.
    .systemLibrary(
      name: "CExempi", path: "Sources/CExempi", pkgConfig: "exempi-2.0",
      providers: [.apt(["libexempi-dev"])]),
    // What every program Tessera starts is given: the environment without Tessera's own
    // VIPSHOME, and pipes that close on exec from birth (pipe2, which Swift cannot see).
    .target(name: "CProcess"),
    // One bounded GET over AsyncHTTPClient (deadline, body limit, http(s) only) that the feed
    // fetcher and the image loader share (`package` access, no product).
    .target(
      name: "TesseraHTTP",
      dependencies: [
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ]),
    // The value types every module shares in its public API (`PixelSize`, `RGB`); the library
    // modules re-export it. No dependencies.
    .target(name: "TesseraGeometry"),
    // A few non-variadic C functions over libvips (Debian: libvips-dev): Swift cannot call
    // variadic C. vips.pc's cflags carry -pthread, which SwiftPM refuses with a warning on
    // every build, so the glib include folders (all vips.h needs) are named here instead.
    .target(
      name: "CVipsShim",
      dependencies: ["CPNG", "CProcess"],
      cSettings: [
        .unsafeFlags([
          "-I/usr/include/glib-2.0",
          "-I/usr/lib/x86_64-linux-gnu/glib-2.0/include",
          "-I/usr/lib/aarch64-linux-gnu/glib-2.0/include",
        ])
      ],
      // libvips is opened at run time (VipsSymbols.h): not linked, so a launch does not load
      // its ~100 libraries before main. (Photos' JPEGs decode without libvips in CJPEG.)
      linkerSettings: [.linkedLibrary("dl")]
    ),
    // PNG and zlib through the system's libpng and zlib (Debian: libpng-dev, zlib1g-dev):
    // shared thumbnails read and written without libvips, kitty's compressed uploads, PNG
    // chunk checksums. No codec of our own.
    .target(
      name: "CPNG",
      linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]
    ),
    // JPEG through the system's libjpeg-turbo (Debian: libjpeg-dev), the one place Tessera
    // calls it: photos' JPEGs read at the DCT scale that covers the box (without libvips),
    // tiles' pictures written for iTerm2's inline images; one error manager for both.
    .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
    .target(
      name: "TesseraImages",
      dependencies: [
        "CJPEG",
        "TesseraPhotoFormats",
        "CPNG", "CVipsShim", "TesseraGeometry", "TesseraHTTP", "TesseraUtilities",
        .product(name: "HeapModule", package: "swift-collections"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]
    ),
    // Foundation's URLSession as a data loader: its own module, because FoundationNetworking
    // brings libcurl and 27 more libraries into any binary that links it.
    .target(name: "TesseraURLSession", dependencies: ["TesseraImages", "TesseraUtilities"]),
    .target(name: "TesseraCollection", dependencies: ["TesseraGeometry", "TesseraUtilities"]),
    // The glue between the two: a collection cell's image slot loaded through the pipeline,
    // prefetching driven by the collection view's prefetch window.
    .target(name: "TesseraImageBinding", dependencies: ["TesseraCollection", "TesseraImages"]),
    // The local photo library: folder walk, photo headers (EXIF, HEIF), catalog, facts store,
    // order and sections. No network and no feed types: the remote feeds build on it, never
    // the other way round.
    .target(
      name: "TesseraPhotoLibrary",
      dependencies: ["TesseraPhotoFormats", "TesseraGeometry", "TesseraUtilities"]),
    // The feeds: Flickr-format and users JSON over HTTP, their models and view models, the
    // controller. `FolderFeedSource` (a folder as one feed page) lives here, not in
    // TesseraPhotoLibrary: it is a `FeedSource` of `FeedPage<PhotoViewModel>`s, so it needs the
    // feed layer's types, and reads files through the library's `LocalFile`/`ImageHeader`.
    // Feeds → PhotoLibrary keeps the graph acyclic.
    .target(
      name: "TesseraFeeds",
      dependencies: [
        "TesseraPhotoFormats",
        "TesseraGeometry", "TesseraHTTP", "TesseraPhotoLibrary", "TesseraUtilities",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
      ]),
    // Generated photos without HTTP (seeded pictures, id digits, marker band, libvips encoding):
    // what the server serves and the simulator and tests make directly.
    .target(
      name: "TesseraImageSynthesis",
      dependencies: ["TesseraPhotoFormats", "CVipsShim", "TesseraGeometry", "TesseraUtilities"]),
    .target(
      name: "TesseraServer",
      dependencies: [
        "TesseraGeometry", "TesseraImageSynthesis", "TesseraUtilities",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]
    ),
    .target(name: "TesseraTerminal", dependencies: ["TesseraGeometry", "TesseraUtilities"]),
    // The scroll simulator behind `tessera bench scroll`: the engine, the pipeline and the
    // server's images (made directly, no HTTP) on a virtual clock.
    .target(
      name: "TesseraSimulation",
      dependencies: [
        "TesseraImages", "TesseraCollection", "TesseraImageSynthesis", "TesseraUtilities",
      ]
    ),
    // What every benchmark shares: figures, ratios, tables and JSON, process memory.
    .target(name: "TesseraBenchSupport", dependencies: ["TesseraUtilities"]),
    // The interactive gallery (`package` access, no product): the screen, its feed of items,
    // the run loop and the launcher that sets up feed, pipeline and terminal. Also
    // `ChildEnvironment` (`package`), which its clipboard and TesseraBench's peers both use.
    .target(
      name: "TesseraGallery",
      dependencies: [
        "TesseraGeometry", "TesseraPhotoFormats",
        "TesseraImages", "TesseraCollection", "TesseraImageBinding", "TesseraFeeds",
        "TesseraPhotoLibrary", "TesseraServer", "TesseraTerminal", "TesseraUtilities",
      ]
    ),
    // The benchmarks behind `tessera bench …` (`package` access, no product): the `Bench`
    // command and its subcommands; the library bench drives the gallery's `GalleryFeed`.
    .target(
      name: "TesseraBench",
      dependencies: [
        "CJPEG",
        "TesseraPhotoFormats",
        "CVipsShim", "TesseraBenchSupport", "TesseraCollection", "TesseraGallery",
        "TesseraImageSynthesis", "TesseraImages", "TesseraPhotoLibrary", "TesseraSimulation",
        "TesseraTerminal", "TesseraUtilities",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The command line only: `tessera [PATH|URL]…` (the gallery), `serve`, `bench`.
    .executableTarget(
      name: "tessera",
      dependencies: [
        "TesseraBench", "TesseraGallery", "TesseraPhotoLibrary", "TesseraServer", "TesseraTerminal",
        "TesseraUtilities", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The HTTP data loaders compared: its own program, since URLSession links libcurl.
    .executableTarget(
      name: "tessera-loader-bench",
      dependencies: [
        "TesseraBenchSupport", "TesseraImages", "TesseraServer", "TesseraURLSession",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Fixtures the test targets share, not a product (swift-collections' _CollectionsTestSupport
    // is the model): images encoded and decoded through libvips, temporary folders, loopback
    // sockets, state a test waits on (a wait ends at the test's time limit). Seeded generators
    // are TesseraUtilities' SplitMix64. The RAW maker is TesseraImageSynthesis' (the bench makes
    // RAWs too), re-exported here.
    .target(
      name: "TesseraTestSupport",
      dependencies: [
        "CVipsShim", "TesseraGeometry", "TesseraHTTP", "TesseraImageSynthesis",
        "TesseraPhotoLibrary", "TesseraUtilities",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      path: "Tests/TesseraTestSupport"),
    .testTarget(
      name: "TesseraUtilitiesTests",
      dependencies: ["TesseraUtilities", "TesseraGeometry", "TesseraTestSupport"]),
    .testTarget(name: "TesseraGeometryTests", dependencies: ["TesseraGeometry"]),
    .testTarget(
      name: "TesseraPhotoFormatsTests",
      dependencies: [
        "CVipsShim", "TesseraGeometry", "TesseraImageSynthesis", "TesseraPhotoFormats",
        "TesseraTestSupport", "TesseraUtilities",
      ]),
    .testTarget(name: "TesseraHTTPTests", dependencies: ["TesseraHTTP"]),
    .testTarget(
      name: "CVipsShimTests",
      dependencies: ["CPNG", "CVipsShim", "TesseraGeometry", "TesseraTestSupport"]),
    .testTarget(
      name: "TesseraImagesTests",
      dependencies: [
        "CJPEG",
        "TesseraPhotoFormats",
        "CVipsShim", "TesseraImages", "TesseraURLSession", "TesseraTestSupport", "TesseraUtilities",
        // One integration test serves images over real HTTP on 127.0.0.1.
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]
    ),
    .testTarget(
      name: "TesseraCollectionTests",
      dependencies: ["TesseraCollection", "TesseraTestSupport", "TesseraUtilities"]),
    .testTarget(
      name: "TesseraImageBindingTests",
      dependencies: [
        "TesseraImageBinding", "TesseraCollection", "TesseraImages", "TesseraTestSupport",
      ]),
    .testTarget(
      name: "TesseraPhotoLibraryTests",
      dependencies: [
        "TesseraPhotoFormats",
        "CVipsShim", "TesseraGeometry", "TesseraPhotoLibrary", "TesseraTestSupport",
        "TesseraUtilities",
      ]),
    .testTarget(
      name: "TesseraFeedsTests",
      dependencies: [
        "TesseraFeeds", "TesseraImageSynthesis", "TesseraPhotoFormats", "TesseraPhotoLibrary",
        "TesseraServer", "TesseraTestSupport", "TesseraUtilities",
      ]),
    .testTarget(
      name: "TesseraImageSynthesisTests",
      dependencies: ["TesseraImageSynthesis", "TesseraTestSupport"]),
    .testTarget(
      name: "TesseraServerTests",
      dependencies: [
        "TesseraServer", "TesseraTestSupport", "TesseraUtilities",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ]
    ),
    .testTarget(
      name: "TesseraTerminalTests",
      dependencies: ["TesseraTerminal", "CPNG", "TesseraTestSupport", "TesseraUtilities"]),
    .testTarget(
      name: "TesseraSimulationTests",
      dependencies: ["TesseraSimulation", "TesseraImageSynthesis"]),
    .testTarget(
      name: "TesseraAppTests",
      dependencies: [
        "TesseraPhotoFormats",
        "tessera", "TesseraBench", "TesseraCollection", "TesseraFeeds", "TesseraGallery",
        "TesseraGeometry", "TesseraImages", "TesseraPhotoLibrary", "TesseraServer",
        "TesseraTerminal", "TesseraTestSupport", "TesseraUtilities",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)

// The sanitizer runs (scripts/sanitize.sh) build the unit suites only. The end-to-end suite
// drives the release binary, never an instrumented one, and nothing else depends on the
// gallery, the benchmarks or the programs, so building them under a sanitizer was minutes of
// `make test` spent on code no instrumented test runs.
if Context.environment["TESSERA_UNIT_TESTS_ONLY"] != nil {
  let endToEnd: Set<String> = [
    "TesseraAppTests", "tessera", "tessera-loader-bench", "TesseraBench", "TesseraBenchSupport",
    "TesseraGallery",
  ]
  package.targets.removeAll { endToEnd.contains($0.name) }
  package.products.removeAll { endToEnd.contains($0.name) }
}
