import Foundation
import TesseraFeeds
import TesseraImages

/// Fetches a Flickr-format public feed, loads every thumbnail through the shared image
/// pipeline with a progress bar on standard error, and prints a summary: how many, which
/// failed and why, bytes downloaded, time.
///
///     feed-thumbnails https://www.flickr.com/services/feeds/photos_public.gne
///     feed-thumbnails http://127.0.0.1:8080/services/feeds/photos_public.gne?per_page=40
@main
struct FeedThumbnails {
  static let usage = """
    usage: feed-thumbnails FEED-URL
      Loads every thumbnail of a Flickr-format photo feed (its first page) and prints
      what happened. Example: feed-thumbnails http://127.0.0.1:8080/services/feeds/photos_public.gne

    """

  static func main() async {
    let arguments = CommandLine.arguments.dropFirst()
    guard arguments.count == 1, let text = arguments.first, let feedURL = URL(string: text),
      feedURL.scheme == "http" || feedURL.scheme == "https"
    else {
      FileHandle.standardError.write(Data(usage.utf8))
      exit(2)
    }
    let started = ContinuousClock.now
    let page: FeedPage<PhotoViewModel>
    do {
      page = try await FlickrFeedSource(feedURL: feedURL).fetch(page: 1)
    } catch {
      FileHandle.standardError.write(Data("feed-thumbnails: \(error)\n".utf8))
      exit(1)
    }
    let outcomes = await loadThumbnails(of: page.items)
    let first = await firstPhotoLine(page.items.first)
    let summary = Summary(
      outcomes: outcomes, first: first, skipped: page.skipped.count,
      bytes: ImagePipeline.shared.statistics.bytesDownloaded,
      elapsed: ContinuousClock.now - started)
    print(summary.text)
    exit(summary.failures.isEmpty ? 0 : 3)
  }

  /// The feed's first photo at the size the feed names, loaded with the one line a client
  /// needs: "first photo: 240×180 px" or why it failed.
  static func firstPhotoLine(_ photo: PhotoViewModel?) async -> String {
    guard let url = photo?.photo.mediaURL else { return "first photo: none" }
    do throws(ImagePipelineError) {
      let image = try await ImagePipeline.shared.image(for: url)
      return "first photo: \(image.width)×\(image.height) px"
    } catch {
      return "first photo: failed (\(error))"
    }
  }

  /// Loads each photo's 150×150 thumbnail, a few at a time (the pipeline queues the rest),
  /// drawing the progress bar as each one ends.
  static func loadThumbnails(of photos: [PhotoViewModel]) async -> [Outcome] {
    let bar = ProgressBar(total: photos.count)
    bar.draw(done: 0)
    let outcomes = await withTaskGroup(of: Outcome.self) { group in
      for photo in photos {
        group.addTask {
          let url = photo.photo.mediaURL(size: .square150)
          let request = ImageRequest(
            url: url, targetSize: PixelSize(width: 150, height: 150), contentMode: .aspectFill)
          do throws(ImagePipelineError) {
            let response = try await ImagePipeline.shared.imageTask(with: request).response
            return Outcome(url: url, result: .success(response.origin))
          } catch {
            return Outcome(url: url, result: .failure(error))
          }
        }
      }
      var outcomes: [Outcome] = []
      for await outcome in group {
        outcomes.append(outcome)
        bar.draw(done: outcomes.count)
      }
      return outcomes
    }
    bar.finish()
    return outcomes
  }
}

/// How one thumbnail ended.
struct Outcome: Sendable {
  var url: URL
  var result: Result<ImageResponse.Origin, ImagePipelineError>
}
