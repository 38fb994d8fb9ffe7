//! How a discount is printed.

use domain::catalog::Price;

/// Percent off, rounded down to two decimals: `30.76% off`, `25% off`.
pub fn percent_off(price: &Price) -> Option<String> {
    let sale = price.sale?;
    let hundredths = (price.price.minor - sale.minor) * 10_000 / price.price.minor;
    let text = if hundredths % 100 == 0 {
        format!("{}", hundredths / 100)
    } else if hundredths % 10 == 0 {
        format!("{}.{}", hundredths / 100, (hundredths % 100) / 10)
    } else {
        format!("{}.{:02}", hundredths / 100, hundredths % 100)
    };
    Some(format!("{text}% off"))
}
