import Foundation
import TesseraPhotoFormats
import TesseraTestSupport
import Testing

@testable import TesseraPhotoLibrary

/// The sidecars the other tools write, each in its own form (made by hand from their
/// documented output): Tessera reads what each says, and a rating, a label and a tag written
/// into each keep every other property exiftool reads there, structures whole.
@Suite(.timeLimit(.minutes(1))) struct SidecarFormsTests {
  /// Lightroom Classic's sidecar of a RAW: develop settings (`crs:`, a tone curve among them),
  /// the editing history, keywords and their hierarchy, all in one description.
  static let lightroom = """
    <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0-c000 1.000000, 0000/00/00-00:00:00        ">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about=""
        xmlns:xmp="http://ns.adobe.com/xap/1.0/"
        xmlns:tiff="http://ns.adobe.com/tiff/1.0/"
        xmlns:exif="http://ns.adobe.com/exif/1.0/"
        xmlns:aux="http://ns.adobe.com/exif/1.0/aux/"
        xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
        xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
        xmlns:stEvt="http://ns.adobe.com/xap/1.0/sType/ResourceEvent#"
        xmlns:dc="http://purl.org/dc/elements/1.1/"
        xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
        xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
       xmp:ModifyDate="2024-05-01T10:12:00+02:00"
       xmp:Rating="2"
       xmp:Label="Yellow"
       tiff:Make="Canon"
       tiff:Model="Canon EOS R5"
       exif:ExposureTime="1/250"
       exif:FNumber="28/10"
       aux:Lens="RF24-70mm F2.8 L IS USM"
       photoshop:DateCreated="2024-05-01T09:58:31.20"
       xmpMM:DocumentID="xmp.did:8a0c4d2e-5b1f-4c3a-9d1e-2f3a4b5c6d7e"
       xmpMM:InstanceID="xmp.iid:8a0c4d2e-5b1f-4c3a-9d1e-2f3a4b5c6d7e"
       crs:Version="15.0"
       crs:ProcessVersion="11.0"
       crs:WhiteBalance="As Shot"
       crs:Exposure2012="+0.35"
       crs:Contrast2012="+12"
       crs:Highlights2012="-40"
       crs:Shadows2012="+25"
       crs:HasCrop="True"
       crs:CropTop="0.05"
       crs:CropLeft="0.02"
       crs:CropBottom="0.97"
       crs:CropRight="0.99"
       crs:CropAngle="-1.2"
       crs:ToneCurveName2012="Linear"
       crs:CameraProfile="Adobe Standard"
       crs:HasSettings="True">
       <crs:ToneCurvePV2012>
        <rdf:Seq>
         <rdf:li>0, 0</rdf:li>
         <rdf:li>64, 58</rdf:li>
         <rdf:li>255, 255</rdf:li>
        </rdf:Seq>
       </crs:ToneCurvePV2012>
       <xmpMM:History>
        <rdf:Seq>
         <rdf:li
          stEvt:action="saved"
          stEvt:instanceID="xmp.iid:8a0c4d2e-5b1f-4c3a-9d1e-2f3a4b5c6d7e"
          stEvt:when="2024-05-01T10:12:00+02:00"
          stEvt:softwareAgent="Adobe Photoshop Lightroom Classic 13.0 (Macintosh)"
          stEvt:changed="/metadata"/>
        </rdf:Seq>
       </xmpMM:History>
       <dc:subject>
        <rdf:Bag>
         <rdf:li>Ann</rdf:li>
         <rdf:li>wedding</rdf:li>
        </rdf:Bag>
       </dc:subject>
       <lr:hierarchicalSubject>
        <rdf:Bag>
         <rdf:li>People|Ann</rdf:li>
        </rdf:Bag>
       </lr:hierarchicalSubject>
      </rdf:Description>
     </rdf:RDF>
    </x:xmpmeta>
    """

  /// digiKam's sidecar (through Exiv2): its tag tree in `TagsList`, the same tags for
  /// Lightroom and for Windows, a face region in the Metadata Working Group's form.
  static let digiKam = """
    <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
    <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about=""
        xmlns:digiKam="http://www.digikam.org/ns/1.0/"
        xmlns:MicrosoftPhoto="http://ns.microsoft.com/photo/1.0/"
        xmlns:xmp="http://ns.adobe.com/xap/1.0/"
        xmlns:acdsee="http://ns.acdsee.com/iptc/1.0/"
        xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/"
        xmlns:stDim="http://ns.adobe.com/xap/1.0/sType/Dimensions#"
        xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#"
        xmlns:dc="http://purl.org/dc/elements/1.1/"
        xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
       xmp:Rating="3"
       MicrosoftPhoto:Rating="50"
       acdsee:categories="&lt;Categories&gt;&lt;Category Assigned=&quot;1&quot;&gt;People&lt;/Category&gt;&lt;/Categories&gt;">
       <digiKam:TagsList>
        <rdf:Seq>
         <rdf:li>People/Ann</rdf:li>
         <rdf:li>Events/Wedding</rdf:li>
        </rdf:Seq>
       </digiKam:TagsList>
       <MicrosoftPhoto:LastKeywordXMP>
        <rdf:Bag>
         <rdf:li>People/Ann</rdf:li>
         <rdf:li>Events/Wedding</rdf:li>
        </rdf:Bag>
       </MicrosoftPhoto:LastKeywordXMP>
       <mwg-rs:Regions rdf:parseType="Resource">
        <mwg-rs:AppliedToDimensions stDim:w="4000" stDim:h="3000" stDim:unit="pixel"/>
        <mwg-rs:RegionList>
         <rdf:Bag>
          <rdf:li>
           <rdf:Description mwg-rs:Name="Ann" mwg-rs:Type="Face">
            <mwg-rs:Area stArea:x="0.5" stArea:y="0.4" stArea:w="0.1" stArea:h="0.15"
             stArea:unit="normalized"/>
           </rdf:Description>
          </rdf:li>
         </rdf:Bag>
        </mwg-rs:RegionList>
       </mwg-rs:Regions>
       <dc:subject>
        <rdf:Bag>
         <rdf:li>Ann</rdf:li>
         <rdf:li>Wedding</rdf:li>
        </rdf:Bag>
       </dc:subject>
       <lr:hierarchicalSubject>
        <rdf:Bag>
         <rdf:li>People|Ann</rdf:li>
         <rdf:li>Events|Wedding</rdf:li>
        </rdf:Bag>
       </lr:hierarchicalSubject>
      </rdf:Description>
     </rdf:RDF>
    </x:xmpmeta>
    <?xpacket end="w"?>
    """

  /// Each form, its name as its tool names it, and what Tessera reads in it.
  static let forms: [(tool: String, name: String, text: String, reads: PhotoCulling)] = [
    (
      "darktable", "IMG_0001.CR2.xmp", SidecarWriterTests.darktableSidecar,
      PhotoCulling(rating: 2, label: .other, tags: ["Places/France/Paris"])
    ),
    (
      "Lightroom", "IMG_0001.xmp", lightroom,
      PhotoCulling(rating: 2, label: .yellow, tags: ["Ann", "wedding", "People/Ann"])
    ),
    (
      "digiKam", "IMG_0001.CR2.xmp", digiKam,
      PhotoCulling(
        rating: 3, tags: ["Ann", "Wedding", "People/Ann", "Events/Wedding"])
    ),
  ]

  @Test(arguments: 0..<forms.count)
  func eachToolsFormIsReadAndKeepsAllElseThroughAWrite(_ index: Int) async throws {
    let form = Self.forms[index]
    try await TemporaryFolder.with { folder in
      let path = folder.appendingPathComponent(form.name).path
      try Data(form.text.utf8).write(to: URL(fileURLWithPath: path))
      #expect(
        LocalPhotoHeaderReader().culling(ofSidecarAt: path) == form.reads, "\(form.tool)")
      let before = try SidecarWriterTests().exiftoolTags(path)

      _ = try SidecarWriter.apply(.rating(4), toSidecarAt: path)
      _ = try SidecarWriter.apply(.label(.red), toSidecarAt: path)
      _ = try SidecarWriter.apply(.tags(add: ["trip"], remove: []), toSidecarAt: path)

      var after = try SidecarWriterTests().exiftoolTags(path)
      #expect(after.removeValue(forKey: "XMP-xmp:Rating") == "4", "\(form.tool)")
      #expect(after.removeValue(forKey: "XMP-xmp:Label") == #""Red""#, "\(form.tool)")
      let subject = after.removeValue(forKey: "XMP-dc:Subject")
      #expect(subject?.contains(#""trip""#) == true, "\(form.tool): \(subject ?? "none")")
      var expected = before
      for key in ["XMP-xmp:Rating", "XMP-xmp:Label", "XMP-dc:Subject"] {
        expected.removeValue(forKey: key)
      }
      // Everything else the tool wrote, as exiftool reads it: the same.
      #expect(after == expected, "\(form.tool)")
      for key in expected.keys
      where key.hasPrefix("XMP-crs:") || key.hasPrefix("XMP-darktable:")
        || key.hasPrefix("XMP-mwg-rs:")
      {
        #expect(after[key] == expected[key], "\(form.tool): \(key)")
      }
      let exiv2 = try Exiv2.run(["-q", "-K", "Xmp.xmp.Rating", "-K", "Xmp.xmp.Label", "-Pv", path])
      #expect(exiv2.split(separator: "\n") == ["4", "Red"], "\(form.tool): \(exiv2)")
    }
  }
}
