//! Market prefixes on the site-relative links of content.

use domain::market::Market;

/// Prefixes site-relative links in content with the market path; media and asset paths stay as they are.
pub fn localise_links(value: &serde_json::Value, market: &Market) -> serde_json::Value {
    const LINK_KEYS: [&str; 9] = [
        "url",
        "link",
        "href",
        "buttonLink",
        "countdownLink",
        "imageLinkUrl",
        "bannerLinkUrl",
        "imageLink",
        "invisibleAreaLink",
    ];
    match value {
        serde_json::Value::Object(map) => serde_json::Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = match v {
                        serde_json::Value::String(s)
                            if LINK_KEYS.contains(&k.as_str()) && is_site_path(s) =>
                        {
                            serde_json::Value::String(market.path(s))
                        }
                        other => localise_links(other, market),
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        serde_json::Value::Array(items) => {
            serde_json::Value::Array(items.iter().map(|v| localise_links(v, market)).collect())
        }
        other => other.clone(),
    }
}

fn is_site_path(s: &str) -> bool {
    s.starts_with('/')
        && !s.starts_with("//")
        && !s.starts_with("/media/")
        && !s.starts_with("/assets/")
}
