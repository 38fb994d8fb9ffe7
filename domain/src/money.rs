//! Money in minor units (pence, cents) with its currency, and the price formatting rules.

use crate::market::Currency;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Money {
    pub minor: i64,
    pub currency: Currency,
}

/// The largest amount an export may hold for one price.
const MAX_AMOUNT: f64 = 10_000_000.0;

/// An export's amount as an error message quotes it: as written up to a billion, in scientific
/// notation beyond (`1.7e308`, not a 309-digit number).
fn show_amount(amount: f64) -> String {
    if amount.abs() < 1e9 {
        format!("{amount}")
    } else {
        format!("{amount:e}")
    }
}

impl Money {
    pub fn new(minor: i64, currency: Currency) -> Money {
        Money { minor, currency }
    }

    /// Converts an export's decimal amount (a JSON number) to minor units. Rejects negative,
    /// non-finite and absurd values so that bad data never reaches a page or a cart.
    pub fn from_decimal(amount: f64, currency: Currency) -> Result<Money, String> {
        if !amount.is_finite() {
            return Err("is not a finite number".into());
        }
        if amount < 0.0 {
            return Err(format!("is negative ({})", show_amount(amount)));
        }
        if amount > MAX_AMOUNT {
            return Err(format!(
                "is implausibly large ({}; the most is {MAX_AMOUNT})",
                show_amount(amount)
            ));
        }
        Ok(Money::new((amount * 100.0).round() as i64, currency))
    }

    /// `£45.00`: the format used for prices on pages.
    pub fn format(&self) -> String {
        format!(
            "{}{}.{:02}",
            self.currency.symbol(),
            group_thousands(self.minor / 100),
            self.minor % 100
        )
    }

    /// `£45` for whole amounts, `£45.50` otherwise: the "without pennies" format, also used where
    /// a trailing ".00" is removed (shop-the-look prices).
    pub fn format_short(&self) -> String {
        let full = self.format();
        full.strip_suffix(".00").map(str::to_string).unwrap_or(full)
    }

    /// Amount as a plain decimal string (`45.00`) for structured data such as JSON-LD.
    pub fn decimal(&self) -> String {
        format!("{}.{:02}", self.minor / 100, self.minor % 100)
    }
}

fn group_thousands(n: i64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Parses a displayed price string by removing everything except digits and the decimal point
/// (the spec's rule), into minor units. `None` when nothing numeric is left.
pub fn parse_price_string(text: &str) -> Option<i64> {
    let kept: String = text
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let value: f64 = kept.parse().ok()?;
    Some((value * 100.0).round() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_with_symbol_pennies_and_thousands() {
        assert_eq!(Money::new(4500, Currency::Gbp).format(), "£45.00");
        assert_eq!(Money::new(5995, Currency::Usd).format(), "$59.95");
        assert_eq!(
            Money::new(123456789, Currency::Eur).format(),
            "€1,234,567.89"
        );
        assert_eq!(Money::new(5, Currency::Gbp).format(), "£0.05");
    }

    #[test]
    fn short_format_drops_only_a_trailing_zero_pence() {
        assert_eq!(Money::new(4500, Currency::Gbp).format_short(), "£45");
        assert_eq!(Money::new(4550, Currency::Gbp).format_short(), "£45.50");
    }

    #[test]
    fn decimals_convert_with_rounding_and_reject_bad_values() {
        assert_eq!(
            Money::from_decimal(19.99, Currency::Gbp).unwrap().minor,
            1999
        );
        assert_eq!(
            Money::from_decimal(0.1 + 0.2, Currency::Gbp).unwrap().minor,
            30
        );
        assert!(Money::from_decimal(-1.0, Currency::Gbp).is_err());
        assert!(Money::from_decimal(f64::NAN, Currency::Gbp).is_err());
    }

    #[test]
    fn price_strings_keep_digits_and_point() {
        assert_eq!(parse_price_string("£1,234.50"), Some(123450));
        assert_eq!(parse_price_string("€ 12"), Some(1200));
        assert_eq!(parse_price_string("free"), None);
    }
}
