import TesseraUtilities
import Testing

/// Counts grouped by threes, as the screen and `tessera find` write them, without Foundation's
/// locale formatter.
@Suite struct CountTextTests {
  @Test(arguments: [
    (0, "0"), (7, "7"), (999, "999"), (1_000, "1,000"), (1_204, "1,204"), (100_000, "100,000"),
    (1_000_000, "1,000,000"), (-1_234, "-1,234"), (Int.max, "9,223,372,036,854,775,807"),
    (Int.min, "-9,223,372,036,854,775,808"),
  ])
  func numbersAreGroupedByThrees(count: Int, text: String) {
    #expect(CountText.grouped(count) == text)
  }
}
