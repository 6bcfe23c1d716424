//! Planning the year (`/holidays/upcoming`, `/long-weekends`), built on first use: each
//! [`HolidayScope`]'s dates as sorted positions (the next N: a binary search and a slice), and
//! each year's periods with up to [`MAX_LEAVE_DAYS`] leave days (fewer: a filter). A date is
//! *marked* when it carries a red holiday or a declared extra day off.

use kalendorius_dataset::planning::periods;
use kalendorius_dataset::{Date, Lang, Transfer, TransferKind};

use super::Catalog;

/// The most leave days a period may take (`max_leave_days` 0..=10).
pub const MAX_LEAVE_DAYS: usize = 10;

/// The values of `scope`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(rename = "Scope")]
pub enum HolidayScope {
    /// Non-working holiday dates.
    Red,
    /// Every holiday date.
    All,
}

/// A long weekend or a bridge: consecutive rest runs and the working days between them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Period {
    pub start: Date,
    pub end: Date,
    /// The working days inside it, to be taken as leave, in date order.
    pub leave_days: Box<[Date]>,
    /// Its dates carrying a red holiday or a declared extra day off, in date order.
    pub marked: Box<[Date]>,
}

impl Period {
    /// Calendar days from `start` to `end`, both counted.
    pub fn days_off(&self) -> u32 {
        (self.start.days_until(self.end) + 1) as u32
    }
}

impl Catalog {
    fn planning_dates(&self) -> &[Box<[u32]>; 2] {
        self.holiday_dates.get_or_init(|| {
            let (mut red, mut all) = (Vec::new(), Vec::new());
            for i in 0..self.days.len() as u32 {
                let date = self.date_at(i as usize);
                let declared = self.declared_day_off(date).is_some();
                let mut holidays = self.holidays_on(date).peekable();
                if declared || holidays.peek().is_some() {
                    all.push(i);
                }
                if declared || holidays.any(|h| h.is_red) {
                    red.push(i);
                }
            }
            [red.into(), all.into()]
        })
    }

    fn is_marked(&self, position: usize) -> bool {
        let red = &self.planning_dates()[HolidayScope::Red as usize];
        red.binary_search(&(position as u32)).is_ok()
    }

    pub fn declared_day_off(&self, date: Date) -> Option<&Transfer> {
        self.transfer_on(date)
            .filter(|t| t.kind == TransferKind::DayOff)
    }

    /// The names in `lang` of what makes a served `date` a holiday day off: its red holidays
    /// (in holiday order), then its declared extra day off. Empty on any other date.
    pub fn day_off_names(&self, date: Date, lang: Lang) -> impl Iterator<Item = &str> + '_ {
        let red = self.holidays_on(date).filter(|h| h.is_red);
        red.map(move |h| h.name(lang))
            .chain(self.declared_day_off(date).map(move |t| t.name(lang)))
    }

    /// The next `count` holiday dates of `scope` from a served `from` on, in date order.
    pub fn holiday_dates_from(
        &self,
        from: Date,
        scope: HolidayScope,
        count: usize,
    ) -> impl Iterator<Item = Date> + '_ {
        let list = &self.planning_dates()[scope as usize];
        let at = self.first.days_until(from) as u32;
        let begin = list.partition_point(|&p| p < at);
        list[begin..]
            .iter()
            .take(count)
            .map(|&p| self.date_at(p as usize))
    }

    /// The periods starting in a served `year` with at most `max_leave_days` leave days.
    pub fn long_weekends(
        &self,
        year: i32,
        max_leave_days: usize,
    ) -> impl Iterator<Item = &Period> + '_ {
        let slot = (year - self.first.year()) as usize;
        let periods = self.periods[slot].get_or_init(|| {
            let position = |month, day| {
                let date = Date::from_ymd(year, month, day).expect("a served year");
                self.first.days_until(date) as usize
            };
            periods(
                self.days.len(),
                |i| self.days[i].reason.is_some(),
                |i| self.is_marked(i),
                position(1, 1),
                position(12, 31),
                MAX_LEAVE_DAYS,
            )
            .into_iter()
            .map(|(start, end, leave)| Period {
                start: self.date_at(start),
                end: self.date_at(end),
                leave_days: leave.into_iter().map(|i| self.date_at(i)).collect(),
                marked: (start..=end)
                    .filter(|&i| self.is_marked(i))
                    .map(|i| self.date_at(i))
                    .collect(),
            })
            .collect::<Box<[Period]>>()
        });
        periods
            .iter()
            .filter(move |p| p.leave_days.len() <= max_leave_days)
    }
}
