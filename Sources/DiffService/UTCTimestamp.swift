import FoundationEssentials

/// A time as ISO 8601 text in UTC to the millisecond, `2026-11-21T09:38:33.120Z` (the time of a log line).
///
/// The same text as Foundation's `ISO8601FormatStyle(includingFractionalSeconds: true)`, computed from the
/// milliseconds since 1970 with integer arithmetic (the proleptic Gregorian calendar's days-to-civil conversion),
/// which costs a small fraction of the format style on every request's log line.
struct UTCTimestamp {
    /// The text, e.g. `2026-11-21T09:38:33.120Z`.
    let text: String

    /// The timestamp of `date`, its milliseconds truncated (after rounding to the microsecond, so that a time
    /// given in whole milliseconds, which a `Double` of seconds holds only approximately, keeps its millisecond).
    ///
    /// - Parameter date: The time (exact to the millisecond through the year 2100, where a `Date`'s `Double`
    ///   still holds the microsecond); years 0000 to 9999 are written with four digits.
    init(_ date: Date) {
        let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let milliseconds = microseconds.floorDivided(by: 1000).quotient
        let (days, millisecondOfDay) = milliseconds.floorDivided(by: 86_400_000)
        let (year, month, day) = Self.civil(fromDays: days)
        let seconds = millisecondOfDay / 1000
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        func digits(_ value: Int64, _ count: Int) {
            var divisor: Int64 = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: (rest / divisor) % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(seconds / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(seconds / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(seconds % 60, 2)
        bytes.append(UInt8(ascii: "."))
        digits(millisecondOfDay % 1000, 3)
        bytes.append(UInt8(ascii: "Z"))
        text = String(decoding: bytes, as: UTF8.self)
    }

    /// The year, month and day of a count of days since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    /// - Complexity: O(1).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468  // days since 0000-03-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097  // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365  // 0...399
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0...365, from March
        let monthFromMarch = (5 * dayOfYear + 2) / 153  // 0...11
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Int64 {
    /// The quotient rounded toward negative infinity and the remainder, which is never negative.
    fileprivate func floorDivided(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
