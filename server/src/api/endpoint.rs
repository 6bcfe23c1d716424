//! What an operation is ([`Endpoint`]) and what its handler receives: the [`Params`] its
//! query is parsed into, which its [`Handler`] answers; each endpoint file holds one of each.

use std::hash::Hash;

use poem::{Request, Response};

pub use crate::api::context::Context;
use crate::api::params::{Kind, Param};
use crate::api::query::Query;
use crate::http::cache::AnswerKeyRef;
use crate::http::errors::{ApiError, ErrorCode};
use crate::limits::PublicEndpoint;

/// One operation: what the gate, the handler and the OpenAPI document know of it.
pub struct Endpoint {
    /// The path under [`PREFIX`].
    pub path: &'static str,
    /// The document's `operationId`, also the key of its cached answers.
    pub operation_id: &'static str,
    pub summary: &'static str,
    pub description: &'static str,
    pub access: Access,
    /// Its query parameters, in the order they are checked: its [`Params::DECLARED`].
    pub params: &'static [Param],
    pub answer: AnswerKind,
    /// The codes its 400 may carry, made from `params` and its checks across them by
    /// [`BadRequest`] (`invalid_host` is added for every endpoint).
    pub bad_request: &'static [ErrorCode],
    /// [`serve`] of its [`Handler`] type.
    pub handle: fn(&Endpoint, &Request, &Query, &Context) -> Result<Response, ApiError>,
}

/// An endpoint's parameters as its handler receives them, parsed by their declaration;
/// `Hash + Eq`, so that they are the key of its cached answers and the identity of its ETag.
/// [`params!`] writes it when each is read on its own.
pub trait Params: Sized + Clone + Hash + Eq + Send + Sync + 'static {
    /// Its parameters, in the order they are checked.
    const DECLARED: &'static [Param];

    /// Reads `query` in the declared order, then the checks across parameters.
    fn parse(query: &Query, cx: &Context) -> Result<Self, ApiError>;
}

/// Declares the parameters of an endpoint whose parameters are each read on their own: the
/// struct its handler receives, each field with its type and its [`Param`]; and its
/// [`Params`], declaring them in the order written and reading each field by its `Param`,
/// in that order.
macro_rules! params {
    ($(#[$doc:meta])* pub struct $name:ident { $($field:ident: $type:ty = $param:expr),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name {
            $(pub $field: $type),+
        }

        impl $crate::api::endpoint::Params for $name {
            const DECLARED: &'static [$crate::api::params::Param] = &[$($param),+];

            fn parse(
                query: &$crate::api::query::Query,
                cx: &$crate::api::context::Context,
            ) -> Result<Self, $crate::http::errors::ApiError> {
                Ok($name {
                    $($field: $param.read(query, cx)?),+
                })
            }
        }
    };
}

pub(crate) use params;

/// The handler of an endpoint: the answer to its parsed parameters.
pub trait Handler: Params {
    fn handle(&self, req: &Request, cx: &Context) -> Result<Response, ApiError>;
}

impl Endpoint {
    /// Answers `req`, its query read with `api_key` when keyed (so a repeated key is refused).
    pub fn answer(&self, req: &Request, cx: &Context) -> Result<Response, ApiError> {
        let names = self.params.iter().map(|p| p.name);
        let api_key = (self.access == Access::Keyed).then_some("api_key");
        let query = Query::parse(req.uri().query(), names.chain(api_key))?;
        (self.handle)(self, req, &query, cx)
    }

    /// Whether a success may be a 304 (it carries an ETag): a public answer always does, a
    /// keyed one when a date parameter was `today`.
    pub fn revalidates(&self) -> bool {
        matches!(self.access, Access::Public(_)) || self.params.iter().any(|p| p.kind == Kind::Date)
    }
}

/// Answers a request to an endpoint whose parameters are `P`: parses them, hands them to
/// their handler, and gives an answer that used `today` the ETag of what was asked (the
/// endpoint and `P`).
pub fn serve<P: Handler>(
    endpoint: &Endpoint,
    req: &Request,
    query: &Query,
    cx: &Context,
) -> Result<Response, ApiError> {
    let params = P::parse(query, cx)?;
    let response = params.handle(req, cx)?;
    let keyed = endpoint.access == Access::Keyed;
    let operation = endpoint.operation_id;
    let asked = || {
        AnswerKeyRef {
            operation,
            params: &params,
        }
        .identity()
    };
    Ok(cx.today.finish(response, req, cx.catalog, keyed, asked))
}

/// The codes an endpoint's 400 may carry, made from its declarations when the program is
/// compiled: the document's list follows the parameters (a test holds it to the codes real
/// requests get). In a const, `BadRequest::of(P::DECLARED).and(&[...]).codes()` is the
/// `&'static` list [`Endpoint::bad_request`] takes.
pub struct BadRequest {
    codes: [ErrorCode; BadRequest::MAX],
    len: usize,
}

impl BadRequest {
    /// The 400 codes of [`ErrorCode`] but `invalid_host`, each listed at most once: a list
    /// that needs more room panics, which in a const is a compile error, not a silent cut.
    const MAX: usize = 9;

    /// The codes of `params`' own checks, in their order: `missing_param` for a required one,
    /// then its kind's for a bad value ([`Kind::bad_value`]); then `invalid_param`, which
    /// [`Query::parse`] gives any parameter sent twice.
    pub const fn of(params: &[Param]) -> BadRequest {
        let mut codes = BadRequest {
            codes: [ErrorCode::InvalidParam; BadRequest::MAX],
            len: 0,
        };
        let mut i = 0;
        while i < params.len() {
            if params[i].required {
                codes = codes.and(&[ErrorCode::MissingParam]);
            }
            codes = codes.and(params[i].kind.bad_value());
            i += 1;
        }
        if !params.is_empty() {
            codes = codes.and(&[ErrorCode::InvalidParam]);
        }
        codes
    }

    /// These codes too, those not listed yet: for the codes of an endpoint's checks across
    /// its parameters (a range's order and length, two that exclude each other, ...).
    pub const fn and(mut self, more: &[ErrorCode]) -> BadRequest {
        let mut i = 0;
        while i < more.len() {
            if !self.lists(more[i]) {
                self.codes[self.len] = more[i];
                self.len += 1;
            }
            i += 1;
        }
        self
    }

    /// The codes, each once, in the order they were added.
    pub const fn codes(&self) -> &[ErrorCode] {
        self.codes.split_at(self.len).0
    }

    const fn lists(&self, code: ErrorCode) -> bool {
        let mut i = 0;
        while i < self.len {
            // `==` is not callable in a const fn; the codes carry no data.
            if self.codes[i] as u8 == code as u8 {
                return true;
            }
            i += 1;
        }
        false
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone, counted per client IP by this counter.
    Public(PublicEndpoint),
    /// The holder of an API key, counted per key.
    Keyed,
}

pub enum AnswerKind {
    /// JSON of the schema of `SchemaGenerator::subschema_for` of the answer type.
    Json(fn(&mut schemars::SchemaGenerator) -> schemars::Schema),
    Calendar,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::params::{DATE, LANG, WEEK};

    #[test]
    fn the_codes_follow_the_parameters_in_order_each_once() {
        use ErrorCode::*;
        const CODES: &[ErrorCode] = BadRequest::of(&[DATE, WEEK, LANG])
            .and(&[InvalidRange, MissingParam])
            .codes();
        assert_eq!(
            CODES,
            [
                MissingParam,
                InvalidDate,
                InvalidParam,
                InvalidLang,
                InvalidRange
            ]
        );
        assert_eq!(BadRequest::of(&[]).and(&[OutOfRange]).codes(), [OutOfRange]);
    }
}
