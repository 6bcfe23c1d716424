//! The gate's route table ([`RouteTable`]): every route a request can take (the operations of
//! [`ROUTES`], the pages, `/data`, the docs, the probes, `/metrics` and the OpenAPI document),
//! each with its label in the metrics, who may use it and what counts it, and what answers it.
//! A request's route is its row's index, also the index of its label; a path no row takes is
//! `other`, the last label.

use std::borrow::Cow;

use crate::api;
use crate::api::endpoint::{Access, Endpoint as Operation};
use crate::api::PREFIX;
use crate::health::{Probe, PROBES};
use crate::limits::PublicEndpoint;
use crate::{metrics, pages};

pub const OPENAPI_PATH: &str = "/api/v1/openapi.json";

/// The operations of the API, in the order of the OpenAPI document: an endpoint's file and
/// its line here are all a new one takes.
pub const ROUTES: &[&Operation] = &[
    &api::laisvadienis::ENDPOINT,
    &api::days::ENDPOINT,
    &api::holidays::ENDPOINT,
    &api::holidays_upcoming::ENDPOINT,
    &api::long_weekends::ENDPOINT,
    &api::name_days::ENDPOINT,
    &api::day::ENDPOINT,
    &api::working_time::ENDPOINT,
    &api::working_days::ENDPOINT,
    &api::working_days_add::ENDPOINT,
    &api::leave::ENDPOINT,
    &api::shift_hours::ENDPOINT,
    &api::name_search::ENDPOINT,
    &api::holidays_feed::ENDPOINT,
    &api::name_days_feed::ENDPOINT,
    &api::school_holidays::ENDPOINT,
    &api::school_holidays_feed::ENDPOINT,
    &api::sun::ENDPOINT,
    &api::moon::ENDPOINT,
    &api::moon_feed::ENDPOINT,
];

/// The label of the requests no route takes.
const OTHER: &str = "other";

/// One route of the gate.
pub struct Route {
    /// Its `route` label in the metrics: an operation's path, else a short name.
    pub label: Cow<'static, str>,
    pub paths: Paths,
    pub access: RouteAccess,
    pub answer: Answer,
}

/// The paths a route takes.
pub enum Paths {
    Exact(Cow<'static, str>),
    /// Every path that starts with this prefix.
    Under(&'static str),
    /// This path and every path under it (`/docs`, `/docs/...`).
    AndBelow(&'static str),
    /// Any path no other route takes and `pages::is_page_path` leaves to the pages (a 404
    /// page included).
    Pages,
}

/// Who may use a route, and what counts its requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RouteAccess {
    /// Anyone, counted per client IP by this public counter.
    Public(PublicEndpoint),
    /// The holder of an API key, counted per key.
    Keyed,
    /// Anyone, never counted.
    Open,
    /// Only a client in `metrics_allow` whose request no untrusted proxy relayed; never
    /// counted. To anyone else the path does not exist.
    AllowListed,
}

/// What answers a route.
#[derive(Clone, Copy)]
pub enum Answer {
    Operation(&'static Operation),
    OpenApi,
    Page,
    Data,
    /// The HTML pages of the API docs, whatever the method.
    Docs,
    Probe(&'static Probe),
    Metrics,
}

/// Every route, the operations first (in the order of [`ROUTES`]); the order of the others
/// does not matter, as no two take the same path.
pub struct RouteTable {
    routes: Vec<Route>,
    /// The index of the pages' route, which takes what no other does.
    pages: usize,
}

impl RouteTable {
    /// The table of `operations` (this server's: [`ROUTES`]) and the other routes.
    pub fn new(operations: &[&'static Operation]) -> RouteTable {
        let operations = operations.iter().map(|&operation| {
            let path = format!("{PREFIX}{}", operation.path);
            Route {
                label: Cow::Owned(path.clone()),
                paths: Paths::Exact(Cow::Owned(path)),
                access: match operation.access {
                    Access::Public(counter) => RouteAccess::Public(counter),
                    Access::Keyed => RouteAccess::Keyed,
                },
                answer: Answer::Operation(operation),
            }
        });
        let probes = PROBES.iter().map(|probe| Route {
            label: Cow::Borrowed(probe.operation_id),
            paths: Paths::Exact(Cow::Borrowed(probe.path)),
            access: RouteAccess::Open,
            answer: Answer::Probe(probe),
        });
        let others = [
            Route {
                label: Cow::Borrowed(OPENAPI_PATH),
                paths: Paths::Exact(Cow::Borrowed(OPENAPI_PATH)),
                access: RouteAccess::Open,
                answer: Answer::OpenApi,
            },
            Route {
                label: Cow::Borrowed("page"),
                paths: Paths::Pages,
                access: RouteAccess::Public(PublicEndpoint::Pages),
                answer: Answer::Page,
            },
            Route {
                label: Cow::Borrowed("data"),
                paths: Paths::Under("/data/"),
                access: RouteAccess::Public(PublicEndpoint::Data),
                answer: Answer::Data,
            },
            Route {
                label: Cow::Borrowed("docs"),
                paths: Paths::AndBelow("/docs"),
                access: RouteAccess::Open,
                answer: Answer::Docs,
            },
            Route {
                label: Cow::Borrowed("metrics"),
                paths: Paths::Exact(Cow::Borrowed(metrics::PATH)),
                access: RouteAccess::AllowListed,
                answer: Answer::Metrics,
            },
        ];
        let routes: Vec<Route> = operations.chain(others).chain(probes).collect();
        let pages = routes
            .iter()
            .position(|route| matches!(route.paths, Paths::Pages));
        RouteTable {
            pages: pages.expect("the pages have a route"),
            routes,
        }
    }

    /// The metrics' route labels: each route's, by index, then `other`.
    pub fn labels(&self) -> impl Iterator<Item = &str> {
        let labels = self.routes.iter().map(|route| route.label.as_ref());
        labels.chain([OTHER])
    }

    /// The index of the route that takes `path`, if any (the pages take what no other does).
    pub fn find(&self, path: &str) -> Option<usize> {
        let takes = |route: &Route| match &route.paths {
            Paths::Exact(exact) => path == exact,
            Paths::Under(prefix) => path.starts_with(prefix),
            Paths::AndBelow(top) => path
                .strip_prefix(top)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/')),
            Paths::Pages => false,
        };
        let taken = self.routes.iter().position(takes);
        taken.or_else(|| pages::is_page_path(path).then_some(self.pages))
    }

    /// The label index of a request no route takes.
    pub fn other(&self) -> usize {
        self.routes.len()
    }
}

impl std::ops::Index<usize> for RouteTable {
    type Output = Route;

    fn index(&self, index: usize) -> &Route {
        &self.routes[index]
    }
}
