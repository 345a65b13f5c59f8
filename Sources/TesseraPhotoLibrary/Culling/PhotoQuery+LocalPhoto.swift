import TesseraPhotoFormats

extension PhotoQuery.Facts {
  /// What `photo` shows: its name, the rating that counts, its label and tags, camera and
  /// date taken (else modified).
  public init(_ photo: LocalPhoto) {
    self.init(
      name: photo.file.name, rating: photo.header?.rating, label: photo.header?.culling?.label,
      tags: photo.header?.culling?.tags ?? [], camera: photo.header?.exif?.model,
      date: photo.header?.exif?.taken ?? photo.modified)
  }
}
