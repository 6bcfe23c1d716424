//! The places whose sun the service computes: the centres of Lithuania's 60 municipalities
//! (`sources/places.csv`), published as `places.json` ([`PlacesFile`]) and listed in the
//! manifest like the other files.

use serde::{Deserialize, Serialize};

use crate::sun::Observer;
use crate::{Confidence, Lang};

/// Latitudes of Lithuania, with a margin of a few kilometres (53.90°..56.45° N).
pub const LATITUDES: std::ops::RangeInclusive<f64> = 53.85..=56.50;
/// Longitudes of Lithuania, with a margin of a few kilometres (20.93°..26.84° E).
pub const LONGITUDES: std::ops::RangeInclusive<f64> = 20.90..=26.90;
/// The place of a request that names none.
pub const DEFAULT_PLACE: &str = "vilnius";

/// A place's names in the four languages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlaceNames {
    /// Lithuanian.
    pub lt: String,
    /// English.
    pub en: String,
    /// Polish.
    pub pl: String,
    /// Russian.
    pub ru: String,
}

/// The centre of a municipality.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Place {
    /// Its identifier in requests (`?place=`): lower-case a-z and '-'.
    #[schemars(regex(pattern = "^[a-z]+(-[a-z]+)*$"))]
    pub slug: String,
    /// The municipality's official name (`Vilniaus miesto savivaldybė`).
    pub municipality: String,
    /// The place's name: the centre's, or for a district municipality seated in a city of
    /// its own municipality, the district's.
    pub name: PlaceNames,
    /// Latitude of the centre, degrees north, 4 decimals.
    pub latitude: f64,
    /// Longitude of the centre, degrees east, 4 decimals.
    pub longitude: f64,
    /// Where the coordinates and names come from.
    pub source: String,
    /// How sure the names are (the coordinates are read from their source).
    pub confidence: Confidence,
}

impl Place {
    /// Its name in `lang`.
    pub fn name(&self, lang: Lang) -> &str {
        let n = &self.name;
        lang.pick([&n.lt, &n.en, &n.pl, &n.ru])
    }

    /// Where its sun is seen from.
    pub fn observer(&self) -> Observer {
        Observer {
            latitude: self.latitude,
            longitude: self.longitude,
        }
    }
}

/// `places.json`: every place, in the order of the source (city municipalities, district
/// municipalities, the others).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlacesFile {
    /// [`crate::SCHEMA_VERSION`] of the writer.
    pub schema_version: u32,
    /// The places.
    pub places: Vec<Place>,
}

impl PlacesFile {
    /// The place named `slug`.
    pub fn get(&self, slug: &str) -> Option<&Place> {
        self.places.iter().find(|p| p.slug == slug)
    }

    /// Checks what a reader relies on: the schema version, unique slugs, the default place,
    /// coordinates inside Lithuania and four non-empty names.
    pub fn check(&self) -> Result<(), String> {
        crate::schema::check_version(self.schema_version)?;
        for (i, p) in self.places.iter().enumerate() {
            if self.places[..i].iter().any(|q| q.slug == p.slug) {
                return Err(format!("place '{}' is listed twice", p.slug));
            }
            if !LATITUDES.contains(&p.latitude) || !LONGITUDES.contains(&p.longitude) {
                return Err(format!("place '{}' lies outside Lithuania", p.slug));
            }
            if Lang::ALL.iter().any(|&l| p.name(l).trim().is_empty()) {
                return Err(format!("place '{}' lacks a name", p.slug));
            }
        }
        if self.get(DEFAULT_PLACE).is_none() {
            return Err(format!("the default place '{DEFAULT_PLACE}' is missing"));
        }
        Ok(())
    }
}
