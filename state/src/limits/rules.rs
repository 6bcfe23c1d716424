//! The rules that turn a check's windows into its [`Decision`], written once for both stores:
//! the in-memory counters (`subject`) and the Redis store, whose script only counts.
//!
//! A request is counted in every window or in none: it is admitted when no window is
//! exhausted. A refusal names the longest exhausted window; an admission reports the window
//! with the fewest requests remaining, ties going to the shorter one. Windows are always
//! given shortest first (the minute, then the day or the month).

use super::{Decision, Window};

/// One window of a check: its limit and the requests it held before this one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WindowCount {
    pub window: Window,
    pub limit: u64,
    pub used: u64,
}

impl WindowCount {
    pub fn is_exhausted(self) -> bool {
        self.used >= self.limit
    }

    /// How many of its requests must stop counting before this window matters no more:
    /// when exhausted, enough to leave room for one more; otherwise one (its reset is when
    /// its oldest request stops counting).
    pub fn releases_needed(self) -> u64 {
        (self.used + 1).saturating_sub(self.limit).max(1)
    }
}

/// Whether a request is admitted (and so counted in every window).
pub(crate) fn admits(windows: &[WindowCount]) -> bool {
    windows.iter().all(|w| !w.is_exhausted())
}

/// The decision over `windows` (shortest first). `wait_ms(w)` is the time until
/// `w.releases_needed()` of `w`'s requests stop counting, this request included when it is
/// admitted.
pub(crate) fn decide(windows: [WindowCount; 2], wait_ms: impl Fn(WindowCount) -> i64) -> Decision {
    let exhausted = || windows.into_iter().filter(|w| w.is_exhausted());
    if let Some(longest) = exhausted().next_back() {
        let every_exhausted_admits = exhausted().map(&wait_ms).max().unwrap_or(1);
        return Decision {
            refused_by: Some(longest.window),
            limit: longest.limit,
            remaining: 0,
            reset_secs: whole_secs(wait_ms(longest)),
            retry_after_secs: Some(whole_secs(every_exhausted_admits)),
        };
    }
    // `min_by_key` keeps the first of equals: ties go to the shorter window.
    let tightest = windows
        .into_iter()
        .min_by_key(|w| w.limit - w.used - 1)
        .expect("two windows");
    Decision {
        refused_by: None,
        limit: tightest.limit,
        remaining: tightest.limit - tightest.used - 1,
        reset_secs: whole_secs(wait_ms(tightest)),
        retry_after_secs: None,
    }
}

/// Whole seconds (rounded up, at least 1) of a duration in ms.
fn whole_secs(ms: i64) -> u64 {
    (ms.max(1) as u64).div_ceil(1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(window: Window, limit: u64, used: u64) -> WindowCount {
        WindowCount {
            window,
            limit,
            used,
        }
    }

    #[test]
    fn a_refusal_names_the_longest_exhausted_window_and_waits_for_every_one() {
        let windows = [count(Window::Minute, 2, 2), count(Window::Month, 5, 7)];
        assert!(!admits(&windows));
        let wait = |w: WindowCount| match w.window {
            Window::Minute => 1_500,
            _ => 40_000 + w.releases_needed() as i64,
        };
        let d = decide(windows, wait);
        assert_eq!(d.refused_by, Some(Window::Month));
        assert_eq!((d.limit, d.remaining), (5, 0));
        assert_eq!(d.reset_secs, 41, "40 003 ms: three must leave the month");
        assert_eq!(d.retry_after_secs, Some(41));
    }

    #[test]
    fn an_admission_reports_the_tightest_window_ties_to_the_shorter() {
        let tie = [count(Window::Minute, 10, 4), count(Window::Day, 20, 14)];
        assert!(admits(&tie));
        let d = decide(tie, |w| if w.window == Window::Minute { 999 } else { 0 });
        assert_eq!((d.refused_by, d.limit, d.remaining), (None, 10, 5));
        assert_eq!((d.reset_secs, d.retry_after_secs), (1, None));
        let day = decide(
            [count(Window::Minute, 10, 0), count(Window::Day, 20, 18)],
            |_| 60_001,
        );
        assert_eq!((day.limit, day.remaining, day.reset_secs), (20, 1, 61));
    }
}
