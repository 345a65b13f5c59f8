import Testing

@testable import TesseraUtilities

@Suite struct CivilCalendarTests {
  /// Walking day by day from 1 January of year 1 to the end of 2400 (six full 400-year
  /// cycles), each day is the one after the day before: the next day of the month, or the
  /// 1st of the next month exactly when the month has no more days; and back to the same count.
  @Test func everyDayFollowsTheOneBefore() {
    let first = CivilCalendar.days(year: 1, month: 1, day: 1)
    let last = CivilCalendar.days(year: 2_400, month: 12, day: 31)
    var previous = CivilCalendar.date(days: first)
    #expect(previous == (1, 1, 1))
    var mismatches = 0
    for days in (first + 1)...last {
      let date = CivilCalendar.date(days: days)
      let endOfMonth =
        previous.day == CivilCalendar.daysIn(month: previous.month, year: previous.year)
      let expected =
        !endOfMonth
        ? (previous.year, previous.month, previous.day + 1)
        : previous.month == 12 ? (previous.year + 1, 1, 1) : (previous.year, previous.month + 1, 1)
      if date != expected
        || CivilCalendar.days(year: date.year, month: date.month, day: date.day) != days
      {
        mismatches += 1
      }
      previous = date
    }
    #expect(mismatches == 0)
    #expect(previous == (2_400, 12, 31))
  }

  @Test func theEpochAndLeapYears() {
    #expect(CivilCalendar.days(year: 1_970, month: 1, day: 1) == 0)
    #expect(CivilCalendar.days(year: 2_000, month: 3, day: 1) == 11_017)
    #expect(CivilCalendar.daysIn(month: 2, year: 2_000) == 29)
    #expect(CivilCalendar.daysIn(month: 2, year: 1_900) == 28)
    #expect(CivilCalendar.daysIn(month: 2, year: 2_024) == 29)
    #expect(CivilCalendar.daysIn(month: 4, year: 2_024) == 30)
  }
}
