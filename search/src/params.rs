//! The listing's URL and API parameters (page, sort as field-direction, direction,
//! query, filters[name] repeatable, a range as low-high), parsed strictly: every unknown or
//! malformed value is an error naming the parameter, never a silent default.

use serde::Serialize;

/// 48 products per page.
pub const PER_PAGE: usize = 48;

/// How many pages a listing of `total` products has: an empty listing still has its one page.
pub fn page_count(total: usize) -> usize {
    total.div_ceil(PER_PAGE).max(1)
}

/// The products of a listing's first page (in its default order), which its static page prints.
pub fn first_page<T>(members: &[T]) -> &[T] {
    &members[..members.len().min(PER_PAGE)]
}

/// Longest search text accepted; longer queries are refused (400), not silently cut.
pub const MAX_QUERY_CHARS: usize = 200;

/// The listing orders. `featured` is the merchandiser's order (the editor's order on a
/// collection) and `relevance` the search engine's; both are the defaults of their pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Sort {
    #[serde(rename = "featured")]
    Featured,
    #[serde(rename = "relevance")]
    Relevance,
    #[serde(rename = "newest")]
    Newest,
    #[serde(rename = "price-asc")]
    PriceAsc,
    #[serde(rename = "price-desc")]
    PriceDesc,
}

impl Sort {
    pub const ALL: [Sort; 5] = [
        Sort::Featured,
        Sort::Relevance,
        Sort::Newest,
        Sort::PriceAsc,
        Sort::PriceDesc,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Sort::Featured => "featured",
            Sort::Relevance => "relevance",
            Sort::Newest => "newest",
            Sort::PriceAsc => "price-asc",
            Sort::PriceDesc => "price-desc",
        }
    }
}

/// Filters of one listing request. Values within one filter are alternatives (Black or Navy);
/// different filters must all hold.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filters {
    pub colours: Vec<String>,
    pub sizes: Vec<String>,
    /// Inclusive current-price range in minor units.
    pub price: Option<(i64, i64)>,
}

impl Filters {
    pub fn is_empty(&self) -> bool {
        self.colours.is_empty() && self.sizes.is_empty() && self.price.is_none()
    }
}

/// A parsed listing request, less its scope (category, collection or search text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListingParams {
    pub filters: Filters,
    /// `None` = the page's default order.
    pub sort: Option<Sort>,
    /// 1-based.
    pub page: usize,
    /// The search text (`query`), trimmed; present on the search page.
    pub query: Option<String>,
}

/// A rejected parameter: which one and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{param}: {message}")]
pub struct ParamError {
    pub param: String,
    pub message: String,
}

fn bad(param: impl Into<String>, message: impl Into<String>) -> ParamError {
    ParamError {
        param: param.into(),
        message: message.into(),
    }
}

/// Checks a search text: trimmed, not empty, at most `MAX_QUERY_CHARS` characters.
pub fn search_text(raw: Option<&str>) -> Result<String, ParamError> {
    let text = raw.map(str::trim).unwrap_or("");
    if text.is_empty() {
        return Err(bad("query", "must not be empty"));
    }
    if text.chars().count() > MAX_QUERY_CHARS {
        return Err(bad(
            "query",
            format!("must be at most {MAX_QUERY_CHARS} characters"),
        ));
    }
    Ok(text.to_string())
}

/// Parses a price range `low-high` in major units (`20-50`, `19.99-45.5`) into minor units.
fn price_range(raw: &str) -> Result<(i64, i64), String> {
    let (low, high) = raw
        .split_once('-')
        .ok_or("must be a range low-high, e.g. 20-50")?;
    let low = major_to_minor(low).ok_or("low end must be a non-negative amount")?;
    let high = major_to_minor(high).ok_or("high end must be a non-negative amount")?;
    if low > high {
        return Err("low end must not be above the high end".into());
    }
    Ok((low, high))
}

fn major_to_minor(raw: &str) -> Option<i64> {
    let raw = raw.trim();
    let (whole, fraction) = raw.split_once('.').unwrap_or((raw, ""));
    if whole.is_empty()
        || whole.len() > 9
        || fraction.len() > 2
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let cents = match fraction.len() {
        0 => 0,
        1 => fraction.parse::<i64>().ok()? * 10,
        _ => fraction.parse::<i64>().ok()?,
    };
    Some(whole.parse::<i64>().ok()? * 100 + cents)
}

/// Parses listing parameters from decoded query pairs. `market` and the scope's own parameters
/// (`kind`, `id`) are the caller's; anything else unknown is refused.
pub fn parse_listing(
    pairs: &[(String, String)],
    passthrough: &[&str],
) -> Result<ListingParams, ParamError> {
    let mut params = ListingParams {
        filters: Filters::default(),
        sort: None,
        page: 1,
        query: None,
    };
    let mut sort_field: Option<String> = None;
    let mut direction: Option<String> = None;
    let mut seen_page = false;
    for (key, value) in pairs {
        match key.as_str() {
            "page" => {
                if seen_page {
                    return Err(bad("page", "must be given once"));
                }
                seen_page = true;
                params.page = match value.parse::<usize>() {
                    Ok(n) if n >= 1 => n,
                    _ => return Err(bad("page", "must be a whole number from 1")),
                };
            }
            "sort" => sort_field = Some(value.trim().to_ascii_lowercase()),
            "direction" => direction = Some(value.trim().to_ascii_lowercase()),
            "query" => params.query = Some(search_text(Some(value))?),
            k if k.starts_with("filters[") && k.ends_with(']') => {
                let name = &k["filters[".len()..k.len() - 1];
                let value = value.trim();
                if value.is_empty() {
                    return Err(bad(k, "must not be empty"));
                }
                match name.to_ascii_lowercase().as_str() {
                    "color" | "colour" => params.filters.colours.push(value.to_string()),
                    "size" => params.filters.sizes.push(value.to_string()),
                    "price" => {
                        if params.filters.price.is_some() {
                            return Err(bad(k, "must be given once"));
                        }
                        params.filters.price = Some(price_range(value).map_err(|m| bad(k, m))?);
                    }
                    _ => {
                        return Err(bad(
                            k,
                            "is not a filter of this listing (Color, Size or price)",
                        ));
                    }
                }
            }
            k if passthrough.contains(&k) => {}
            k => return Err(bad(k, "is not a listing parameter")),
        }
    }
    params.sort = parse_sort(sort_field.as_deref(), direction.as_deref())?;
    dedup(&mut params.filters.colours);
    dedup(&mut params.filters.sizes);
    Ok(params)
}

fn dedup(values: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    values.retain(|v| seen.insert(v.clone()));
}

/// `sort=price-asc`, or the split form `sort=price&direction=asc`.
fn parse_sort(field: Option<&str>, direction: Option<&str>) -> Result<Option<Sort>, ParamError> {
    let Some(field) = field else {
        return match direction {
            None => Ok(None),
            Some(_) => Err(bad("direction", "needs a sort")),
        };
    };
    let name = match direction {
        Some(d) if d == "asc" || d == "desc" => {
            if field.contains('-') {
                return Err(bad("direction", "sort already has a direction"));
            }
            format!("{field}-{d}")
        }
        Some(_) => return Err(bad("direction", "must be asc or desc")),
        None => field.to_string(),
    };
    let name = match name.as_str() {
        "newest-desc" | "created-desc" => "newest",
        "featured-asc" => "featured",
        "relevance-desc" => "relevance",
        other => other,
    };
    Sort::ALL
        .into_iter()
        .find(|s| s.as_str() == name)
        .map(Some)
        .ok_or_else(|| {
            bad(
                "sort",
                "must be one of featured, relevance, newest, price-asc, price-desc",
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
        items
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn err(items: &[(&str, &str)]) -> ParamError {
        parse_listing(&pairs(items), &["market"]).unwrap_err()
    }

    #[test]
    fn parses_filters_sort_and_page() {
        let p = parse_listing(
            &pairs(&[
                ("filters[Color]", "Black"),
                ("filters[size]", "10"),
                ("filters[price]", "19.5-45"),
                ("sort", "price"),
                ("direction", "desc"),
                ("page", "2"),
                ("market", "uk"),
            ]),
            &["market"],
        )
        .unwrap();
        assert_eq!(p.filters.colours, ["Black"]);
        assert_eq!(p.filters.sizes, ["10"]);
        assert_eq!(p.filters.price, Some((1950, 4500)));
        assert_eq!(p.sort, Some(Sort::PriceDesc));
        assert_eq!(p.page, 2);
    }

    #[test]
    fn bad_parameters_name_themselves() {
        assert_eq!(err(&[("filters[fabric]", "silk")]).param, "filters[fabric]");
        assert_eq!(err(&[("sort", "cheapest")]).param, "sort");
        assert_eq!(err(&[("page", "0")]).param, "page");
        assert_eq!(err(&[("page", "two")]).param, "page");
        assert_eq!(err(&[("filters[price]", "50")]).param, "filters[price]");
        assert_eq!(err(&[("filters[price]", "50-20")]).param, "filters[price]");
        assert_eq!(err(&[("filters[price]", "a-b")]).param, "filters[price]");
        assert_eq!(err(&[("colour", "Black")]).param, "colour");
        assert_eq!(
            err(&[("direction", "up"), ("sort", "price")]).param,
            "direction"
        );
        assert_eq!(err(&[("query", &"x".repeat(10_000))]).param, "query");
        assert_eq!(err(&[("query", "   ")]).param, "query");
    }

    #[test]
    fn search_text_is_trimmed_and_bounded() {
        assert_eq!(search_text(Some("  dress ")).unwrap(), "dress");
        assert!(search_text(None).is_err());
        assert!(search_text(Some(&"é".repeat(MAX_QUERY_CHARS))).is_ok());
        assert!(search_text(Some(&"é".repeat(MAX_QUERY_CHARS + 1))).is_err());
    }
}
