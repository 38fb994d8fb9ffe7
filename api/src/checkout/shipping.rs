//! Where a checkout may ship and how (docs/checkout.md, "Where a shopper can send an order"):
//! the country rule, the market's shipping options (rows of `shipping_option`, seeded by
//! migration 5) and the rules that filter them by name, and whether the bag can leave entirely
//! from the main warehouse.

use crate::bag::PricedBag;
use crate::error::ApiResult;
use crate::rows::row;
use crate::state::AppState;
use crate::stock::availability;
use domain::market::{Market, UK};
use serde::Serialize;
use std::collections::HashMap;
use utoipa::ToSchema;

/// Location 1 is the main warehouse.
pub const MAIN_WAREHOUSE: i64 = 1;

/// A GBP (UK) bag ships only to GB, Jersey and Guernsey.
pub const UK_DESTINATIONS: &[&str] = &["GB", "JE", "GG"];

/// One way to ship, as the wallet sheet lists it.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq)]
pub struct ShippingOption {
    pub id: String,
    pub label: String,
    pub detail: String,
    /// Minor units of the market's currency.
    pub amount_minor: i64,
}

/// An ISO 3166 alpha-2 code as the wallet sends it, upper-cased; `None` when it is not two
/// letters.
pub fn country_code(raw: &str) -> Option<String> {
    let code = raw.trim().to_ascii_uppercase();
    (code.len() == 2 && code.bytes().all(|b| b.is_ascii_uppercase())).then_some(code)
}

/// The UK storefront ships to the UK, Jersey and Guernsey only; the others anywhere their
/// options allow.
pub fn country_allowed(market: &Market, country: &str) -> bool {
    market.code != UK.code || UK_DESTINATIONS.contains(&country)
}

/// The shipping-option rules, by name: click & collect and parcel shop options never (a wallet
/// sheet cannot pick a shop); express and next-day options only when the bag can leave entirely
/// from the main warehouse (UK storefront) or the destination is GB (other storefronts).
pub fn option_allowed(name: &str, market: &Market, country: &str, all_in_main: bool) -> bool {
    let name = name.to_lowercase();
    let collect = [
        "click & collect",
        "click and collect",
        "click&collect",
        "parcel shop",
    ];
    if collect.iter().any(|c| name.contains(c)) {
        return false;
    }
    if name.contains("express") || name.contains("next") {
        return if market.code == UK.code {
            all_in_main
        } else {
            country == "GB"
        };
    }
    true
}

row! {
    struct OptionRow {
        id: String,
        name: String,
        detail: String,
        price: i64,
    }
}

/// The market's options in sheet order.
pub async fn market_options(
    conn: &mut sqlx::AnyConnection,
    market: &Market,
) -> ApiResult<Vec<ShippingOption>> {
    let rows: Vec<OptionRow> = sqlx::query_as(
        "SELECT id, name, detail, price FROM shipping_option WHERE market = $1 ORDER BY position, id",
    )
    .bind(market.code)
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| ShippingOption {
            id: row.id,
            label: row.name,
            detail: row.detail,
            amount_minor: row.price,
        })
        .collect())
}

/// Whether every tracked unit in the bag can be taken from the main warehouse alone: its enabled
/// stock there covers the bag's quantity of each variant. Untracked lines (gift cards) ship by
/// email and do not count.
pub async fn all_in_main_warehouse(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    market: &Market,
    bag: &PricedBag,
) -> ApiResult<bool> {
    let mut wanted: HashMap<u64, i64> = HashMap::new();
    for (l, _) in &bag.lines {
        *wanted.entry(l.variant_id).or_insert(0) += l.quantity;
    }
    let ids: Vec<u64> = wanted.keys().copied().collect();
    let tracked = availability(conn, state, market, &ids).await?;
    let main = crate::inventory::units_at(conn, MAIN_WAREHOUSE, &ids).await?;
    Ok(wanted.iter().all(|(variant, quantity)| {
        let is_tracked = tracked.get(variant).is_none_or(|a| a.tracked);
        !is_tracked || main.get(variant).copied().unwrap_or(0) >= *quantity
    }))
}

/// The options the bag may use to reach `country`, in sheet order, priced for this bag.
pub async fn options_for(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    market: &Market,
    country: &str,
    bag: &PricedBag,
) -> ApiResult<Vec<ShippingOption>> {
    let all_in_main = all_in_main_warehouse(conn, state, market, bag).await?;
    let mut options: Vec<ShippingOption> = market_options(conn, market)
        .await?
        .into_iter()
        .filter(|o| option_allowed(&o.label, market, country, all_in_main))
        .collect();
    if bag.discounts.free_shipping {
        make_cheapest_free(&mut options);
    }
    Ok(options)
}

/// The promotions engine's free shipping (the bag says "SHIPPING FREE"): the cheapest option the
/// bag may use costs nothing (the first of equals); faster options keep their price, as the
/// shopper chooses to pay for speed.
fn make_cheapest_free(options: &mut [ShippingOption]) {
    if let Some(cheapest) = options.iter_mut().min_by_key(|o| o.amount_minor) {
        cheapest.amount_minor = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::market::MARKETS;

    #[test]
    fn free_shipping_makes_the_cheapest_option_free() {
        let option = |id: &str, amount_minor| ShippingOption {
            id: id.into(),
            label: id.into(),
            detail: String::new(),
            amount_minor,
        };
        let mut options = vec![
            option("next", 695),
            option("standard", 395),
            option("other", 395),
        ];
        make_cheapest_free(&mut options);
        let prices: Vec<i64> = options.iter().map(|o| o.amount_minor).collect();
        assert_eq!(prices, [695, 0, 395]);
        make_cheapest_free(&mut []);
    }

    #[test]
    fn the_uk_ships_to_gb_jersey_and_guernsey_only() {
        let uk = &MARKETS[0];
        for ok in ["GB", "JE", "GG"] {
            assert!(country_allowed(uk, ok));
        }
        for no in ["FR", "IE", "US", "IM"] {
            assert!(!country_allowed(uk, no));
        }
        assert!(country_allowed(&MARKETS[1], "US"));
        assert!(country_allowed(&MARKETS[2], "FR"));
        assert_eq!(country_code(" gb "), Some("GB".into()));
        assert_eq!(country_code("GBR"), None);
        assert_eq!(country_code("G1"), None);
    }

    #[test]
    fn collect_options_never_and_fast_options_only_when_allowed() {
        let (uk, us) = (&MARKETS[0], &MARKETS[1]);
        assert!(!option_allowed("Click & Collect", uk, "GB", true));
        assert!(!option_allowed("Parcel Shop Delivery", us, "GB", true));
        assert!(option_allowed("Standard Delivery", uk, "JE", false));
        // UK storefront: the warehouse decides, not the country.
        assert!(option_allowed("Next Day Delivery", uk, "JE", true));
        assert!(!option_allowed("Express Delivery", uk, "GB", false));
        // Other storefronts: the country decides.
        assert!(option_allowed("Express Delivery", us, "GB", false));
        assert!(!option_allowed("Next Day Delivery", us, "US", true));
    }
}
