import TesseraPhotoFormats

extension PhotoQuery.Facts {
  /// What `photo` shows: its name, the rating that counts, its label, camera and date taken
  /// (else modified); `tags` as read from its sidecar, when a query needs them.
  public init(_ photo: LocalPhoto, tags: [String] = []) {
    self.init(
      name: photo.file.name, rating: photo.header?.rating, label: photo.header?.culling?.label,
      tags: tags, camera: photo.header?.exif?.model,
      date: photo.header?.exif?.taken ?? photo.modified)
  }
}
