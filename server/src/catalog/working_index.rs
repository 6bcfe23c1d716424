//! The catalog's working time: the dataset crate's [`WorkingIndex`] over the served range,
//! by date.

use kalendorius_dataset::contract::Contract;
use kalendorius_dataset::leave::{leave_days, LeaveDays};
use kalendorius_dataset::working_time::Week;
use kalendorius_dataset::Date;

pub use kalendorius_dataset::working_index::{WorkingDay, WorkingIndex, WorkingSummary};

use super::Catalog;

impl Catalog {
    /// A date outside the served range is a bug (a JSON 500).
    fn working_position(&self, date: Date) -> usize {
        assert!(self.contains(date), "{date} is not served");
        self.first.days_until(date) as usize
    }

    /// Working-time totals over `from..=to` in `week`; both served, `from <= to`.
    pub fn working_summary(&self, from: Date, to: Date, week: Week) -> WorkingSummary {
        assert!(from <= to, "{from} > {to}");
        self.working
            .summary(self.working_position(from), self.working_position(to), week)
    }

    /// Working-time totals over `from..=to` for `contract`; both served, `from <= to`. The
    /// 40-hour week is [`Catalog::working_summary`], in constant time.
    pub fn contract_summary(&self, from: Date, to: Date, contract: &Contract) -> WorkingSummary {
        if contract.is_forty_hours() {
            return self.working_summary(from, to, contract.week());
        }
        assert!(from <= to, "{from} > {to}");
        let (a, b) = (self.working_position(from), self.working_position(to));
        self.working
            .contract_summary(a, b, from.weekday(), contract)
    }

    pub fn working_day(&self, date: Date) -> WorkingDay {
        self.working.day(self.working_position(date))
    }

    /// The days of `days` working days of leave asked from `asked` in `week`
    /// ([`leave_days`]); `None` past the served range.
    pub fn leave_days(&self, asked: Date, days: u32, week: Week) -> Option<LeaveDays<Date>> {
        let found = leave_days(&self.working, self.working_position(asked), days, week)?;
        Some(found.map(|position| self.date_at(position)))
    }

    /// `date` plus `n` working days in `week` (`/working-days/add`): the `n`-th working day
    /// after `date` (`n > 0`), the `|n|`-th before it (`n < 0`), or for `n == 0` `date`
    /// itself when it is a working day, else the next one; `None` past the served range.
    pub fn add_working_days(&self, date: Date, n: i64, week: Week) -> Option<Date> {
        let found = self.working.add(self.working_position(date), n, week)?;
        Some(self.date_at(found))
    }
}
