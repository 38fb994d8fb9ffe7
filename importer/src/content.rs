//! The content hub's delivery API (v2): the page-shell slots by delivery key with each market's
//! prefix (`GET /content/key/uk/footer`, conditional), the content pages and listing headers
//! through the filter API by schema (`POST /content/filter`, paged by cursor), and single items by delivery id
//! (`GET /content/id/{id}`), all with `depth=all&format=inlined` so linked items arrive in place.
//! Items are grouped by market prefix into the content export's delivery pages.

use crate::config::{ContentSource, ImportConfig};
use crate::error::ImportError;
use crate::etag_cache::EtagCache;
use crate::http::{Body, HttpClient, parse};
use domain::content::SLOTS;
use domain::market::MARKETS;
use indicatif::ProgressBar;
use reqwest::header::HeaderMap;
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashSet};

const PARAMETERS: &str = "depth=all&format=inlined";

pub struct ContentClient {
    pub(crate) http: HttpClient,
    source: ContentSource,
}

impl ContentClient {
    pub fn new(cfg: &ImportConfig) -> Result<Self, ImportError> {
        Ok(ContentClient {
            http: HttpClient::new(&cfg.http, HeaderMap::new())?,
            source: cfg.content.clone(),
        })
    }

    /// A client for the virtual staging host `domain` (content preview): the same policy and
    /// schemas, delivering unpublished versions. The caller has checked the domain.
    pub fn for_staging(cfg: &ImportConfig, domain: &str) -> Result<Self, ImportError> {
        let mut client = Self::new(cfg)?;
        client.source.delivery_base = cfg.content.staging_base.replace("{domain}", domain);
        Ok(client)
    }
}

/// The content part of an export: items per market code (`uk`, `us`, `eu`), in fetch order.
pub struct ContentExport {
    pub by_market: BTreeMap<&'static str, Vec<Value>>,
    /// Listed items whose delivery key has no market prefix (other sites on the same hub).
    pub skipped: usize,
}

#[derive(Deserialize)]
struct Single {
    content: Value,
}

#[derive(Deserialize)]
struct FilterPage {
    responses: Vec<Single>,
    #[serde(default)]
    page: Option<FilterCursor>,
}

#[derive(Deserialize)]
struct FilterCursor {
    #[serde(default, rename = "nextCursor")]
    next_cursor: Option<String>,
}

/// Fetches every slot of every market and every content page.
pub async fn fetch_all(
    client: &ContentClient,
    cache: &EtagCache,
    progress: &ProgressBar,
) -> Result<ContentExport, ImportError> {
    let keys: Vec<String> = MARKETS
        .iter()
        .flat_map(|m| {
            SLOTS
                .iter()
                .map(move |slot| format!("{}{slot}", m.content_prefix))
        })
        .collect();
    progress.inc_length(keys.len() as u64);
    let mut items = Vec::new();
    for key in &keys {
        // A slot the editors have not published is absent; the build treats it as empty.
        if let Some(item) = get_one(client, &format!("/content/key/{key}"), Some(cache)).await? {
            items.push(item);
        }
        progress.inc(1);
    }
    // Pages and listing headers have keys of their own choosing: they are listed by schema.
    for schema in [
        &client.source.content_page_schema,
        &client.source.listing_header_schema,
    ] {
        items.extend(fetch_by_schema(client, schema, progress).await?);
    }
    Ok(group_by_market(items))
}

/// Fresh items by delivery id (for webhook-driven rebuilds). Ids the hub no longer delivers
/// (unpublished or archived) are absent from the result.
pub async fn fetch_content_by_delivery_ids(
    client: &ContentClient,
    ids: &[String],
) -> Result<Vec<Value>, ImportError> {
    get_fresh(client, "/content/id/", ids).await
}

/// Fresh items by full delivery key (`uk/footer`), absent when not published.
pub async fn fetch_content_by_keys(
    client: &ContentClient,
    keys: &[String],
) -> Result<Vec<Value>, ImportError> {
    get_fresh(client, "/content/key/", keys).await
}

/// Single items by id or key, bypassing the ETag cache; absent ones are left out.
async fn get_fresh(
    client: &ContentClient,
    route: &str,
    names: &[String],
) -> Result<Vec<Value>, ImportError> {
    let mut items = Vec::new();
    for name in names {
        if let Some(item) = get_one(client, &format!("{route}{name}"), None).await? {
            items.push(item);
        }
    }
    Ok(items)
}

async fn get_one(
    client: &ContentClient,
    path: &str,
    cache: Option<&EtagCache>,
) -> Result<Option<Value>, ImportError> {
    let url = format!("{}{path}?{PARAMETERS}", client.source.delivery_base);
    match client.http.get(&url, cache).await? {
        Body::NotFound => Ok(None),
        Body::Bytes(bytes) => Ok(Some(parse::<Single>("GET", &url, &bytes)?.content)),
    }
}

/// Every item of one schema, following the filter API's cursor.
async fn fetch_by_schema(
    client: &ContentClient,
    schema: &str,
    progress: &ProgressBar,
) -> Result<Vec<Value>, ImportError> {
    let url = format!("{}/content/filter", client.source.delivery_base);
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    let mut seen_cursors = HashSet::new();
    loop {
        let mut request = json!({
            "filterBy": [{ "path": "/_meta/schema", "value": schema }],
            "sortBy": { "key": "default", "order": "ASC" },
            "page": { "size": client.source.page_size },
            "parameters": { "depth": "all", "format": "inlined" },
        });
        if let Some(cursor) = &cursor {
            request["page"]["cursor"] = json!(cursor);
        }
        progress.inc_length(1);
        let body = client.http.post_json(&url, &request).await;
        progress.inc(1);
        let bytes = match body? {
            Body::Bytes(bytes) => bytes,
            Body::NotFound => {
                return Err(ImportError::Http {
                    method: "POST",
                    url,
                    why: "HTTP 404 Not Found".into(),
                });
            }
        };
        let page: FilterPage = parse("POST", &url, &bytes)?;
        items.extend(page.responses.into_iter().map(|r| r.content));
        match page.page.and_then(|p| p.next_cursor) {
            // A cursor seen before would loop forever: a source bug, reported as such.
            Some(next) if !seen_cursors.insert(next.clone()) => {
                return Err(ImportError::Http {
                    method: "POST",
                    url,
                    why: format!("the filter API returned cursor {next:?} twice"),
                });
            }
            Some(next) => cursor = Some(next),
            None => return Ok(items),
        }
    }
}

fn delivery_key(item: &Value) -> Option<&str> {
    item.get("_meta")?.get("deliveryKey")?.as_str()
}

fn delivery_id(item: &Value) -> Option<&str> {
    item.get("_meta")?.get("deliveryId")?.as_str()
}

/// Groups items by their market prefix, once each (a slot may also match the page filter).
fn group_by_market(items: Vec<Value>) -> ContentExport {
    let mut by_market: BTreeMap<&'static str, Vec<Value>> =
        MARKETS.iter().map(|m| (m.code, Vec::new())).collect();
    let mut seen = HashSet::new();
    let mut skipped = 0;
    for item in items {
        let market = delivery_key(&item)
            .and_then(|key| MARKETS.iter().find(|m| key.starts_with(m.content_prefix)));
        let Some(market) = market else {
            skipped += 1;
            continue;
        };
        let identity = delivery_id(&item)
            .or(delivery_key(&item))
            .unwrap_or_default()
            .to_string();
        if seen.insert(identity) {
            by_market.entry(market.code).or_default().push(item);
        }
    }
    ContentExport { by_market, skipped }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_grouped_by_prefix_once_each_and_others_skipped() {
        let item = |key: &str, id: &str| json!({"_meta": {"deliveryKey": key, "deliveryId": id}});
        let export = group_by_market(vec![
            item("uk/home", "1"),
            item("us/home", "2"),
            item("uk/home", "1"),
            item("de/home", "3"),
            json!({"_meta": {}}),
            item("eu/help/faqs", "4"),
        ]);
        let keys = |code| -> Vec<&str> {
            export.by_market[code]
                .iter()
                .filter_map(delivery_key)
                .collect()
        };
        assert_eq!(keys("uk"), ["uk/home"]);
        assert_eq!(keys("us"), ["us/home"]);
        assert_eq!(keys("eu"), ["eu/help/faqs"]);
        assert_eq!(export.skipped, 2);
    }
}
