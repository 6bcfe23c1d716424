//! Working time for every contract: the length of a day, in whole minutes, for a weekly
//! norm or a weekly schedule, and whether the eve rule shortens it (Labour Code art. 112).
//!
//! [`crate::working_time`] owns the 40-hour week the data publishes (which dates are
//! working days, which are eve days); this module scales it to another contract, once, for
//! the API, the pages and the docs alike:
//! - **A day's length.** `hours_per_week / 5` in the 5-day week; in the 6-day week the
//!   40-hour split (7 h Monday-Friday, 5 h Saturday) scaled by `hours_per_week / 40`.
//!   Counted in whole minutes, rounded half up. A schedule gives each weekday's minutes
//!   itself; `hours_per_week` is then its sum.
//! - **The norm** (art. 112 parts 1, 4-5; art. 40): `full` is the 40-hour week; `reduced`
//!   a reduced norm set by law or the Government (36 h teachers, 37 h some health
//!   specialists, 32 h public-sector parents of a child under 3); `part_time` an agreed
//!   shorter week.
//! - **The eve rule** (art. 112 part 5, part 6 since 2023): the working day before a red
//!   holiday is one hour shorter, *except for employees on a reduced working-time norm*. So
//!   `full` and `part_time` lose 60 minutes on an eve day (never below zero: a 40-minute
//!   day becomes 0), `reduced` loses nothing. The Labour Inspectorate reads it so: the hour
//!   is cut "whether the employee works full or part time (art. 40), in summed accounting
//!   (art. 115), on duty (art. 118)", and not for the reduced norms of Government
//!   resolution No. 496. The same rule is applied to every date served.

use chrono::Weekday;

use crate::working_time::{Week, HOURS_6_SATURDAY, HOURS_6_WEEKDAY, HOURS_PER_WEEK};

/// Minutes in an hour, and the eve rule's cut.
pub const EVE_CUT_MINUTES: u32 = 60;

/// The 40-hour week in hundredths of an hour: the largest `hours_per_week`.
pub const MAX_CENTIHOURS: u32 = HOURS_PER_WEEK as u32 * 100;

/// The longest day a schedule may give, in minutes (24:00).
pub const MAX_DAY_MINUTES: u32 = 24 * 60;

/// What kind of working-time norm a contract has.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema, Default,
)]
#[serde(rename_all = "snake_case")]
pub enum Norm {
    /// The 40-hour week (art. 112 part 1).
    #[default]
    Full,
    /// A statutory reduced norm (art. 112 parts 4-5): no eve day is shortened.
    Reduced,
    /// An agreed part-time week (art. 40): eve days are shortened by one hour.
    PartTime,
}

impl Norm {
    /// Every norm, in the order of [`Norm::NAMES`].
    pub const ALL: [Norm; 3] = [Norm::Full, Norm::Reduced, Norm::PartTime];
    /// The wire names, in [`Norm::ALL`] order.
    pub const NAMES: &'static [&'static str] = &["full", "reduced", "part_time"];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The norm of a wire name, matched without regard to case.
    pub fn parse(text: &str) -> Option<Norm> {
        let at = Self::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(text))?;
        Some(Self::ALL[at])
    }

    /// Whether the eve rule shortens a working day of this norm by an hour.
    pub fn shortens_eve(self) -> bool {
        self != Norm::Reduced
    }
}

/// Why a contract cannot be made (the API words each for its parameters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContractError {
    /// Below 40 hours, `full`, `reduced` and `part_time` differ: the norm must be said.
    NormMissing,
    /// `full` with another week than 40 hours.
    FullNotForty,
    /// `reduced` or `part_time` with 40 hours: neither is shorter than the full week.
    NotShorter(Norm),
    /// A schedule of more than 40 hours.
    OverForty,
    /// A schedule with no working minute.
    Empty,
}

/// A contract's week: the week form, the norm, and each working weekday's minutes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Contract {
    week: Week,
    norm: Norm,
    /// Monday to Saturday; Saturday is 0 in the 5-day week.
    minutes: [u32; 6],
}

impl Contract {
    /// The 40-hour week of `week` (8 h a day, or 7 h and 5 h on Saturday): the data's own.
    pub fn forty_hours(week: Week) -> Contract {
        let centihours = MAX_CENTIHOURS;
        Contract {
            week,
            norm: Norm::Full,
            minutes: scaled_day_minutes(week, centihours),
        }
    }

    /// A week of `centihours` hundredths of an hour (`1..=4000`) in `week`, of `norm`
    /// (`None`: `full` at 40 hours, required below).
    pub fn of_hours(
        week: Week,
        centihours: u32,
        norm: Option<Norm>,
    ) -> Result<Contract, ContractError> {
        assert!((1..=MAX_CENTIHOURS).contains(&centihours), "{centihours}");
        let norm = checked_norm(centihours == MAX_CENTIHOURS, norm)?;
        Ok(Contract {
            week,
            norm,
            minutes: scaled_day_minutes(week, centihours),
        })
    }

    /// A week of the given minutes per weekday, Monday first: 5 entries are the 5-day week,
    /// 6 the 6-day week (Saturday worked). Each entry at most [`MAX_DAY_MINUTES`].
    pub fn of_schedule(schedule: &[u32], norm: Option<Norm>) -> Result<Contract, ContractError> {
        let week = match schedule.len() {
            5 => Week::Five,
            6 => Week::Six,
            n => panic!("a schedule has 5 or 6 days, not {n}"),
        };
        assert!(schedule.iter().all(|&m| m <= MAX_DAY_MINUTES));
        let total: u32 = schedule.iter().sum();
        let forty = u32::from(HOURS_PER_WEEK) * 60;
        if total > forty {
            return Err(ContractError::OverForty);
        }
        if total == 0 {
            return Err(ContractError::Empty);
        }
        let norm = checked_norm(total == forty, norm)?;
        let mut minutes = [0; 6];
        minutes[..schedule.len()].copy_from_slice(schedule);
        Ok(Contract {
            week,
            norm,
            minutes,
        })
    }

    pub fn week(&self) -> Week {
        self.week
    }

    pub fn norm(&self) -> Norm {
        self.norm
    }

    /// Whether this is the data's own 40-hour week (its answers are the published hours).
    pub fn is_forty_hours(&self) -> bool {
        *self == Contract::forty_hours(self.week)
    }

    /// The minutes of each working weekday, Monday first: 5 in the 5-day week, 6 in the
    /// 6-day week.
    pub fn schedule(&self) -> &[u32] {
        match self.week {
            Week::Five => &self.minutes[..5],
            Week::Six => &self.minutes,
        }
    }

    /// Minutes per week: the sum of the schedule.
    pub fn minutes_per_week(&self) -> u32 {
        self.minutes.iter().sum()
    }

    /// The minutes of a date falling on `weekday`: 0 unless `working` (a working day of the
    /// week form, as the data says); one hour less, never below zero, when `eve` (the data's
    /// eve day of the week form) and the norm shortens it.
    pub fn day_minutes(&self, weekday: Weekday, working: bool, eve: bool) -> u32 {
        if !working {
            return 0;
        }
        let full = self.length(weekday);
        if self.is_shortened(weekday, working, eve) {
            full.saturating_sub(EVE_CUT_MINUTES)
        } else {
            full
        }
    }

    /// Whether this contract works the date at all: a working day of the week form with
    /// minutes scheduled on its weekday (an eve day cut to 0 minutes still is one).
    pub fn is_working(&self, weekday: Weekday, working: bool) -> bool {
        working && self.length(weekday) > 0
    }

    /// The length of a working day falling on `weekday`. In the 5-day week a weekend day
    /// declared a working day (it replaces a weekday given off) is the schedule's average
    /// day, `hours_per_week / 5` rounded half up: the weekday's own length for a week of
    /// equal days, as the data's 8 hours.
    fn length(&self, weekday: Weekday) -> u32 {
        match (self.week, weekday) {
            (Week::Five, Weekday::Sat | Weekday::Sun) => (2 * self.minutes_per_week() + 5) / 10,
            (Week::Six, Weekday::Sun) => 0,
            _ => self.minutes[weekday.num_days_from_monday() as usize],
        }
    }

    /// Whether the eve rule shortens the date for this contract.
    pub fn is_shortened(&self, weekday: Weekday, working: bool, eve: bool) -> bool {
        eve && self.norm.shortens_eve() && self.is_working(weekday, working)
    }
}

/// The norm a week of `forty` (40 hours) or fewer hours has, or why it cannot be.
fn checked_norm(forty: bool, norm: Option<Norm>) -> Result<Norm, ContractError> {
    match (forty, norm) {
        (true, None | Some(Norm::Full)) => Ok(Norm::Full),
        (true, Some(other)) => Err(ContractError::NotShorter(other)),
        (false, None) => Err(ContractError::NormMissing),
        (false, Some(Norm::Full)) => Err(ContractError::FullNotForty),
        (false, Some(norm)) => Ok(norm),
    }
}

/// Hundredths of an hour of hours per week written in one spelling per number: 1 or 2
/// digits without a leading zero (or `0`), optionally `.` and 1 or 2 digits not ending in
/// `0` (`36`, `38.5`, `38.25`; not `36.0`, `036`, `.5`); above 0 and at most 40.
pub fn parse_centihours(text: &str) -> Option<u32> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit());
    let plain = digits(whole)
        && (whole == "0" || !whole.starts_with('0'))
        && (!text.contains('.') || (digits(fraction) && !fraction.ends_with('0')));
    if !plain {
        return None;
    }
    let cents: u32 = format!("{fraction:0<2}").parse().ok()?;
    let centihours = whole.parse::<u32>().ok()? * 100 + cents;
    Some(centihours).filter(|c| (1..=MAX_CENTIHOURS).contains(c))
}

/// The minutes of each working weekday of a schedule written as 5 or 6 comma-separated
/// `H:MM` (hours 0-24, minutes 00-59, at most 24:00), Monday first.
pub fn parse_schedule(text: &str) -> Option<Vec<u32>> {
    let day = |entry: &str| -> Option<u32> {
        let (h, m) = entry.split_once(':')?;
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !(digits(h) && h.len() <= 2 && digits(m) && m.len() == 2) {
            return None;
        }
        let (h, m): (u32, u32) = (h.parse().ok()?, m.parse().ok()?);
        Some(h * 60 + m).filter(|&total| m < 60 && total <= MAX_DAY_MINUTES)
    };
    let days: Option<Vec<u32>> = text.split(',').map(day).collect();
    days.filter(|d| (5..=6).contains(&d.len()))
}

/// Each weekday's minutes of a `centihours` week in `week`, Monday first: `h / 5` a day in
/// the 5-day week; the 40-hour 6-day split scaled by `h / 40`; rounded half up.
fn scaled_day_minutes(week: Week, centihours: u32) -> [u32; 6] {
    // minutes = hours_of_day_at_40 * 60 * centihours / 4000, rounded half up.
    let scaled = |hours_at_forty: u8| {
        let doubled = 2 * u32::from(hours_at_forty) * 60 * centihours;
        (doubled + MAX_CENTIHOURS) / (2 * MAX_CENTIHOURS)
    };
    match week {
        Week::Five => {
            let day = scaled(crate::working_time::HOURS_5);
            [day, day, day, day, day, 0]
        }
        Week::Six => {
            let day = scaled(HOURS_6_WEEKDAY);
            [day, day, day, day, day, scaled(HOURS_6_SATURDAY)]
        }
    }
}

/// Hundredths of an hour in `minutes`, rounded half up (how answers write hours).
pub fn centihours_of_minutes(minutes: u64) -> u64 {
    // minutes * 100 / 60 = 5 * minutes / 3; half up: floor((10 * minutes + 3) / 6).
    (10 * minutes + 3) / 6
}

/// A count of minutes written as hours: a number to 2 decimals (rounded half up), an
/// integer when whole (so the 40-hour answers read as they always have).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Hours(pub u64);

impl serde::Serialize for Hours {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let centihours = centihours_of_minutes(self.0);
        let (whole, part) = (centihours / 100, centihours % 100);
        if part == 0 {
            serializer.serialize_u64(whole)
        } else {
            serializer.serialize_f64(centihours as f64 / 100.0)
        }
    }
}

impl schemars::JsonSchema for Hours {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Hours".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "number",
            "minimum": 0,
            "description": "Hours to 2 decimals: whole minutes / 60, rounded half up; an \
                            integer when whole.",
        })
    }
}

impl std::fmt::Display for Hours {
    /// `1807.2`, `2002`, `38.25`: as the JSON writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let centihours = centihours_of_minutes(self.0);
        let (whole, part) = (centihours / 100, centihours % 100);
        // `38.5`, not `38.50`: the one spelling the parameter takes.
        match (part / 10, part % 10) {
            (0, 0) => write!(f, "{whole}"),
            (tenths, 0) => write!(f, "{whole}.{tenths}"),
            _ => write!(f, "{whole}.{part:02}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::working_time::DayFacts;
    use Weekday::*;

    const WEEKDAYS: [Weekday; 7] = [Mon, Tue, Wed, Thu, Fri, Sat, Sun];

    fn hours(week: Week, centihours: u32, norm: Norm) -> Contract {
        Contract::of_hours(week, centihours, Some(norm)).unwrap()
    }

    #[test]
    fn the_forty_hour_week_is_the_datas_own() {
        // Every combination of the facts: the minutes are the published hours times 60.
        for week in [Week::Five, Week::Six] {
            let contract = Contract::forty_hours(week);
            assert!(contract.is_forty_hours());
            assert_eq!(contract.minutes_per_week(), 40 * 60);
            for weekday in WEEKDAYS {
                for bits in 0..64u8 {
                    let bit = |i: u8| bits & (1 << i) != 0;
                    let facts = DayFacts {
                        weekday,
                        red: bit(0),
                        declared_day_off: bit(1) || bit(2),
                        declared_day_off_6: bit(2),
                        declared_working_day: bit(3),
                        next_red: bit(4),
                    };
                    let working = facts.is_working_day(week);
                    let eve = facts.is_shortened(week);
                    assert_eq!(
                        contract.day_minutes(weekday, working, eve),
                        u32::from(facts.hours(week)) * 60,
                        "{week:?} {facts:?}"
                    );
                    assert_eq!(contract.is_shortened(weekday, working, eve), eve);
                }
            }
        }
        assert_eq!(
            Contract::of_hours(Week::Six, 4000, None).unwrap(),
            Contract::forty_hours(Week::Six)
        );
    }

    #[test]
    fn day_lengths_scale_and_round_half_up() {
        let schedule = |week, centihours| hours(week, centihours, Norm::PartTime).minutes;
        // 36 h: 7.2 h = 432 min; 6-day: 7 h * 0.9 = 378, 5 h * 0.9 = 270.
        assert_eq!(schedule(Week::Five, 3600)[0], 432);
        assert_eq!(schedule(Week::Six, 3600), [378, 378, 378, 378, 378, 270]);
        assert_eq!(schedule(Week::Five, 3700)[..5], [444; 5]);
        assert_eq!(schedule(Week::Five, 3200)[4], 384);
        assert_eq!(schedule(Week::Five, 2000)[0], 240);
        // 38.33 h / 5 = 7.666 h = 459.96 min -> 460; 0.05 h / 5 = 0.6 min -> 1;
        // 0.04 h / 5 = 0.48 min -> 0; 0.25 h / 5 = 3 min exactly.
        assert_eq!(schedule(Week::Five, 3833)[0], 460);
        assert_eq!(schedule(Week::Five, 5)[0], 1);
        assert_eq!(schedule(Week::Five, 4)[0], 0);
        assert_eq!(schedule(Week::Five, 25)[0], 3);
        // 6-day Saturdays: 0.1 h a week gives 0.75 min -> 1, 0.06 h 0.45 min -> 0; a
        // 20-hour 6-day weekday is 7 h * 0.5 = 210 min.
        assert_eq!(schedule(Week::Six, 10)[5], 1);
        // Half a minute exactly rounds up: 1 h a week in the 6-day week is 10.5 min on a
        // weekday (7 h / 40), 7.5 min on Saturday.
        assert_eq!(schedule(Week::Six, 100), [11, 11, 11, 11, 11, 8]);
        assert_eq!(schedule(Week::Six, 6)[5], 0);
        assert_eq!(schedule(Week::Six, 2000)[0], 210);
    }

    #[test]
    fn the_eve_hour_by_norm() {
        let eve = |c: &Contract, weekday| c.day_minutes(weekday, true, true);
        // Reduced: never shortened; full and part-time: one hour, never below zero.
        assert_eq!(eve(&hours(Week::Five, 3600, Norm::Reduced), Tue), 432);
        assert_eq!(eve(&hours(Week::Five, 3600, Norm::PartTime), Tue), 372);
        assert_eq!(eve(&hours(Week::Five, 2000, Norm::PartTime), Fri), 180);
        assert_eq!(
            eve(&hours(Week::Five, 250, Norm::PartTime), Fri),
            0,
            "30 min"
        );
        assert!(hours(Week::Five, 250, Norm::PartTime).is_shortened(Fri, true, true));
        assert!(!hours(Week::Five, 3600, Norm::Reduced).is_shortened(Fri, true, true));
        // A non-working day has no minutes whatever the schedule.
        assert_eq!(
            hours(Week::Six, 3600, Norm::Reduced).day_minutes(Sat, false, false),
            0
        );
        assert_eq!(
            hours(Week::Six, 3600, Norm::Reduced).day_minutes(Sat, true, false),
            270
        );
    }

    #[test]
    fn schedules() {
        // The public sector's 8:15 x 4 + 7:00 is 40 hours: full by default.
        let public = Contract::of_schedule(&[495, 495, 495, 495, 420], None).unwrap();
        assert_eq!(public.norm(), Norm::Full);
        assert_eq!(public.week(), Week::Five);
        assert!(!public.is_forty_hours());
        assert_eq!(public.day_minutes(Fri, true, true), 360);
        // A declared working Saturday is the average day: 40 h / 5.
        assert_eq!(public.day_minutes(Sat, true, false), 480);
        assert_eq!(public.day_minutes(Sat, false, false), 0);
        // A four-day part-timer: Wednesday is not worked, nor shortened.
        let four = Contract::of_schedule(&[300, 300, 0, 300, 300], Some(Norm::PartTime)).unwrap();
        assert!(!four.is_working(Wed, true));
        assert!(!four.is_shortened(Wed, true, true));
        assert_eq!(four.minutes_per_week(), 1200);
        // Six entries: the 6-day week.
        let six = Contract::of_schedule(&[420, 420, 420, 420, 420, 300], None).unwrap();
        assert!(six.is_forty_hours());
        assert_eq!(six.schedule().len(), 6);
        assert_eq!(
            Contract::of_schedule(&[600, 600, 600, 600, 60], None),
            Err(ContractError::OverForty)
        );
        assert_eq!(
            Contract::of_schedule(&[0; 5], Some(Norm::PartTime)),
            Err(ContractError::Empty)
        );
    }

    #[test]
    fn the_norm_must_fit_the_hours() {
        let of = |c, n| Contract::of_hours(Week::Five, c, n).map(|c| c.norm());
        assert_eq!(of(4000, None), Ok(Norm::Full));
        assert_eq!(of(4000, Some(Norm::Full)), Ok(Norm::Full));
        assert_eq!(
            of(4000, Some(Norm::Reduced)),
            Err(ContractError::NotShorter(Norm::Reduced))
        );
        assert_eq!(of(3600, None), Err(ContractError::NormMissing));
        assert_eq!(of(3600, Some(Norm::Full)), Err(ContractError::FullNotForty));
        assert_eq!(of(3600, Some(Norm::Reduced)), Ok(Norm::Reduced));
        assert_eq!(
            Norm::ALL.map(Norm::as_str),
            ["full", "reduced", "part_time"]
        );
    }

    #[test]
    fn hours_are_written_to_two_decimals() {
        let text = |m| serde_json::to_string(&Hours(m)).unwrap();
        assert_eq!(text(2002 * 60), "2002");
        assert_eq!(text(108_432), "1807.2");
        assert_eq!(text(1), "0.02", "1/60 h = 0.0166.. -> 0.02");
        assert_eq!(text(495), "8.25");
        assert_eq!(text(0), "0");
        for m in [0, 1, 59, 60, 61, 495, 108_432, 120_000] {
            assert_eq!(Hours(m).to_string(), text(m), "{m}");
        }
    }
}
