extension FeedServer.Configuration {
  /// Why this configuration cannot be served, as a sentence; nil when every number is within
  /// `ServerLimits`. O(1).
  var problem: String? {
    if !ServerLimits.ports.contains(port) {
      return "the port must be between 0 and \(ServerLimits.ports.upperBound), not \(port)"
    }
    if !(0...ServerLimits.maxItems).contains(itemCount) {
      return "the number of photos must be between 0 and \(ServerLimits.maxItems), not \(itemCount)"
    }
    if !(0...ServerLimits.maxUsers).contains(userCount) {
      return "the number of users must be between 0 and \(ServerLimits.maxUsers), not \(userCount)"
    }
    if !(0...ServerLimits.maxImageCacheBytes).contains(imageCacheBytes) {
      return "the image cache must be between 0 and 16 GiB"
    }
    return nil
  }
}
