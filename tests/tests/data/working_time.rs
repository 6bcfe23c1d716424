//! The working-time norms of the published year files against the figures the Ministry of
//! Social Security and Labour publishes every year (the annual average month working days and
//! hours, "metiniai vidutinio mėnesio darbo dienų ir valandų skaičiai") and the Labour
//! Inspectorate's calendar. The figures are written out here, not computed: the per-day
//! fields of the files, summed as a downstream consumer would, must give them.

use super::year_file;

/// Per-month sums of one week form over a year's published file.
#[derive(Debug, Default, PartialEq, Eq)]
struct Month {
    working_days: u32,
    working_hours: u32,
    shortened: Vec<String>,
}

/// The twelve months of `year` in the 5-day (`week == 5`) or 6-day week, from the fields of
/// `years/YYYY.json` read as plain JSON.
fn months(year: i32, week: u8) -> Vec<Month> {
    let (hours_field, shortened_field) = match week {
        5 => ("working_hours_5", "shorter_workday"),
        6 => ("working_hours_6", "shorter_workday_6"),
        _ => unreachable!(),
    };
    let file = year_file(year);
    let mut months: Vec<Month> = (0..12).map(|_| Month::default()).collect();
    for day in file["days"].as_array().unwrap() {
        let date = day["date"].as_str().unwrap();
        let month: usize = date[5..7].parse().unwrap();
        let hours = day[hours_field]
            .as_u64()
            .unwrap_or_else(|| panic!("{date}: no {hours_field}"));
        let shortened = day[shortened_field]
            .as_bool()
            .unwrap_or_else(|| panic!("{date}: no {shortened_field}"));
        let m = &mut months[month - 1];
        m.working_days += u32::from(hours > 0);
        m.working_hours += hours as u32;
        if shortened {
            m.shortened.push(date.to_string());
        }
    }
    months
}

/// `(working days, working hours)` of the year.
fn total(year: i32, week: u8) -> (u32, u32) {
    months(year, week).iter().fold((0, 0), |(d, h), m| {
        (d + m.working_days, h + m.working_hours)
    })
}

/// `total / 12` rounded half up to one decimal, as the ministry's orders publish the
/// average month; in tenths.
fn average_month_tenths(total: u32) -> u32 {
    (20 * total + 12) / 24
}

#[test]
fn year_2025_by_month_five_day_week() {
    let months = months(2025, 5);
    let days: Vec<u32> = months.iter().map(|m| m.working_days).collect();
    let hours: Vec<u32> = months.iter().map(|m| m.working_hours).collect();
    assert_eq!(days, [22, 20, 20, 21, 21, 20, 23, 20, 22, 23, 20, 20]);
    assert_eq!(
        hours,
        [176, 160, 159, 167, 168, 159, 184, 159, 176, 183, 160, 158]
    );
    assert_eq!(total(2025, 5), (252, 2009));
    let shortened: Vec<&str> = months
        .iter()
        .flat_map(|m| m.shortened.iter().map(String::as_str))
        .collect();
    assert_eq!(
        shortened,
        [
            "2025-03-10",
            "2025-04-30",
            "2025-06-23",
            "2025-08-14",
            "2025-10-31",
            "2025-12-23",
            "2025-12-31",
        ]
    );
}

#[test]
fn year_2025_by_month_six_day_week() {
    let days: Vec<u32> = months(2025, 6).iter().map(|m| m.working_days).collect();
    assert_eq!(days, [26, 24, 25, 25, 26, 24, 27, 25, 26, 27, 24, 24]);
    assert_eq!(total(2025, 6), (303, 2007));
}

#[test]
fn annual_figures_of_the_ministers_orders() {
    // (year, 5-day days, hours, 6-day days, hours, the order); `None` where the order's
    // figure for that week is not encoded here.
    #[allow(clippy::type_complexity)]
    let orders: &[(i32, (u32, u32), Option<(u32, u32)>, &str)] = &[
        // Orders of the Minister of Social Security and Labour ("Dėl metinių ... vidutinio
        // mėnesio darbo dienų ir ... valandų skaičių N metais patvirtinimo"); the totals are
        // the ones the order divides by 12.
        // A1-581 of 2012-12-21 (Žin. 2012 Nr. 153-7866), for 2013.
        (2013, (251, 2001), Some((301, 1997)), "A1-581"),
        // A1-693 of 2013-12-16, for 2014.
        (2014, (252, 2009), Some((303, 2007)), "A1-693"),
        // A1-789 of 2015-12-23, for 2016 (averages 21 and 167.5; 25.3 and 167.8).
        (2016, (252, 2010), Some((304, 2014)), "A1-789"),
        // A1-629 of 2017-12-18, for 2018.
        (2018, (251, 2002), Some((303, 2006)), "A1-629"),
        // 2019 as the ministry's summary of A1-767 quotes the year before (the 2019 order's
        // own number was not found).
        (
            2019,
            (251, 2001),
            Some((301, 1997)),
            "2019, quoted beside A1-767",
        ),
        // A1-767 of 2019-12-13, for 2020.
        (2020, (253, 2018), Some((303, 2010)), "A1-767"),
        // A1-1274 of 2020-12-16, for 2021.
        (2021, (252, 2009), Some((302, 2004)), "A1-1274"),
    ];
    for &(year, five, six, order) in orders {
        assert_eq!(total(year, 5), five, "{year}, 5-day week ({order})");
        if let Some(six) = six {
            assert_eq!(total(year, 6), six, "{year}, 6-day week ({order})");
        }
    }
}

#[test]
fn average_months_as_the_orders_publish_them() {
    // (year, 5-day (days, hours), 6-day (days, hours) in tenths, the order)
    #[allow(clippy::type_complexity)]
    let orders: &[(i32, (u32, u32), (u32, u32), &str)] = &[
        // A1-789 of 2015-12-23: 21 days and 167.5 hours, 25.3 days and 167.8 hours.
        (2016, (210, 1675), (253, 1678), "A1-789"),
        // A1-1274: 21.0 days and 167.4 hours, 25.2 days and 167.0 hours.
        (2021, (210, 1674), (252, 1670), "A1-1274"),
    ];
    for &(year, five, six, order) in orders {
        for (week, expected) in [(5, five), (6, six)] {
            let (days, hours) = total(year, week);
            assert_eq!(
                (average_month_tenths(days), average_month_tenths(hours)),
                expected,
                "{year}, {week}-day week ({order})"
            );
        }
    }
}

#[test]
fn every_published_day_carries_the_fields_within_their_range() {
    for year in super::KEPT_FILES {
        for day in year_file(year)["days"].as_array().unwrap() {
            let h5 = day["working_hours_5"].as_u64().unwrap();
            let h6 = day["working_hours_6"].as_u64().unwrap();
            let s5 = day["shorter_workday"].as_bool().unwrap();
            let s6 = day["shorter_workday_6"].as_bool().unwrap();
            let laisvadienis = day["laisvadienis"].as_bool().unwrap();
            assert!(
                [0, 7, 8].contains(&h5) && [0, 4, 5, 6, 7].contains(&h6),
                "{day}"
            );
            assert_eq!(laisvadienis, h5 == 0, "{}", day["date"]);
            assert_eq!(s5, h5 == 7, "{}", day["date"]);
            // Shortened: 6 on a weekday (of 7), 4 on a Saturday (of 5).
            assert_eq!(s6, h6 == 6 || h6 == 4, "{}", day["date"]);
            if day["day_of_week"] == 0 {
                assert_eq!(h6, 0, "{}", day["date"]);
            }
        }
    }
}

#[test]
fn averages_of_2007() {
    // Order A1-340 for 2007 (a year of days in lieu, none for a Saturday holiday) publishes
    // only the averages: 20.7 days and 164.75 hours (5-day week), 25 days and 165.4 hours
    // (6-day week).
    let (days, hours) = total(2007, 5);
    assert_eq!(average_month_tenths(days), 207);
    assert_eq!(hours * 100, 16475 * 12, "164.75 hours exactly");
    let (days, hours) = total(2007, 6);
    assert_eq!(
        (average_month_tenths(days), average_month_tenths(hours)),
        (250, 1654)
    );
}

/// The published hours of one date in the 5-day and the 6-day week.
fn hours_on(date: &str) -> (u64, u64) {
    let file = year_file(date[..4].parse().unwrap());
    let day = file["days"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["date"] == date)
        .unwrap()
        .clone();
    (
        day["working_hours_5"].as_u64().unwrap(),
        day["working_hours_6"].as_u64().unwrap(),
    )
}

#[test]
fn year_2008_differs_from_order_a1_377_by_the_three_transfers_only() {
    // Order A1-377 of 2007-12-27 (Žin. 2008 Nr. 1-32) for 2008, as "Vežėjų žinios" quotes it
    // (sources/SOURCES.md [S92]): 249 days and 1984 hours in the 5-day week (366 calendar
    // days, 13 holidays), averages 25.1 days and 166.3 hours in the 6-day week. Father's Day
    // is not among the 13: it became a holiday on 2009-01-01 (docs/data.md §2.1), so Sun
    // Jun 1 is an ordinary Sunday, Mon Jun 2 an ordinary working day and Sat May 31 a full
    // 6-day Saturday, as the order counts them. The data differs from the order on named
    // dates only, the three transfers of Government resolution No. 1405, adopted the same
    // day (binding on budget-funded bodies; docs/data.md §2.4): Mon Mar 10, Fri May 2 and
    // Mon Jun 23 off, Sat Mar 15, May 10 and Jun 28 worked, in the 5-day week. The order
    // counts the weekdays as working days (Mar 10 and Jun 23 shortened: Mar 11 and Jun 24
    // are red) and the Saturdays as rest days. The 6-day week follows none of them
    // (docs/data.md §2.3): there the data equals the order.
    // The 6-day week gets the days in lieu of Sunday holidays only (Labour Code art. 162¹
    // moves the rest days of art. 161): the order counts the days in lieu of the Saturday
    // holidays Feb 16 and Nov 1 (Mon Feb 18, Mon Nov 3) as 6-day working days, and so does
    // the data.
    type Hours = (u64, u64);
    let expected: &[(&str, Hours, Hours)] = &[
        // (date, published (5-day, 6-day) hours, the order's)
        ("2008-03-10", (0, 6), (7, 6)),
        ("2008-03-15", (8, 5), (0, 5)),
        ("2008-05-02", (0, 7), (8, 7)),
        ("2008-05-10", (8, 5), (0, 5)),
        ("2008-06-23", (0, 6), (7, 6)),
        ("2008-06-28", (8, 5), (0, 5)),
    ];
    // Where the data and the order agree: Father's Day's Monday and Saturday, and the 6-day
    // week's days in lieu of Saturday holidays.
    assert_eq!(hours_on("2008-06-02"), (8, 7));
    assert_eq!(hours_on("2008-05-31"), (0, 5));
    assert_eq!(hours_on("2008-02-18"), (0, 7));
    assert_eq!(hours_on("2008-11-03"), (0, 7));
    let (mut days5, mut hours5) = total(2008, 5);
    let (days6, hours6) = total(2008, 6);
    assert_eq!((days5, hours5, days6, hours6), (249, 1986, 301, 1996));
    for &(date, published, order) in expected {
        assert_eq!(hours_on(date), published, "{date}");
        assert_eq!(
            published.1, order.1,
            "{date}: the 6-day week follows no transfer"
        );
        days5 = days5 + u32::from(order.0 > 0) - u32::from(published.0 > 0);
        hours5 = hours5 + order.0 as u32 - published.0 as u32;
    }
    assert_eq!((days5, hours5), (249, 1984), "A1-377, 5-day week");
    assert_eq!(
        (average_month_tenths(days6), average_month_tenths(hours6)),
        (251, 1663),
        "A1-377, 6-day week"
    );
}

#[test]
fn the_six_day_week_gets_only_the_days_in_lieu_of_sunday_holidays() {
    // Labour Code art. 162¹ (2006-2008) moved the rest days of art. 161 that coincided with a
    // holiday; a 6-day week's only rest day is Sunday. A government transfer moves a Saturday
    // rest day, which the 6-day week does not have (docs/data.md §2.2, §2.3).
    // (date, published (5-day, 6-day) hours)
    let cases: &[(&str, (u64, u64))] = &[
        // Days in lieu of Sunday holidays: off in both weeks.
        ("2006-01-02", (0, 0)), // Sun Jan 1
        ("2006-04-18", (0, 0)), // Easter Sunday (Mon is Easter Monday)
        ("2007-03-12", (0, 0)), // Sun Mar 11
        ("2008-07-07", (0, 0)), // Sun Jul 6
        // Days in lieu of Saturday holidays: working days of the 6-day week.
        ("2006-03-13", (0, 7)), // Sat Mar 11
        ("2006-06-26", (0, 7)), // Sat Jun 24
        // Transferred days off: worked as usual in the 6-day week (shortened before a
        // holiday), and the working Saturdays are ordinary Saturdays.
        ("1999-07-05", (0, 6)), // Tue Jul 6 red
        ("1999-07-03", (8, 5)),
        ("2006-07-07", (0, 7)),
        ("2006-07-01", (8, 5)),
        ("2010-12-24", (0, 6)), // Sat Dec 25 red
        ("2011-02-19", (8, 5)),
        ("2011-10-31", (0, 6)), // Tue Nov 1 red
    ];
    for &(date, hours) in cases {
        assert_eq!(hours_on(date), hours, "{date}");
    }
}
