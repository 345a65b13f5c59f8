import Testing

@testable import TesseraImages

/// Decoder libraries' messages become sentences about the file.
struct DecoderMessageTests {
  @Test func librariesWordsBecomeWhatIsWrongWithTheFile() {
    #expect(
      DecoderMessage.plain("Premature end of JPEG file", format: "JPEG") == "this JPEG ends early")
    #expect(DecoderMessage.plain("VipsJpeg: Premature end of input file") == "this JPEG ends early")
    #expect(
      DecoderMessage.plain("jxlload: error JxlDecoderProcessInput")
        == "this JPEG XL is damaged: it does not decode")
    #expect(DecoderMessage.plain("gifload: truncated GIF") == "this GIF ends early")
    #expect(
      DecoderMessage.plain("Not a JPEG file: starts with 0x89 0x50", format: "JPEG")
        == "this is not a JPEG file")
    #expect(DecoderMessage.plain("something odd") == "this file is damaged: it does not decode")
  }
}
