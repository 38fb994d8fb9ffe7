//! The messages the shop sends, rendered from the minijinja templates in `site-src/templates/mail`
//! (compiled into the binary, so a deployed API needs no template files): each kind as a subject,
//! a plain-text part and an HTML part, in its market's currency and with links under its market's
//! path prefix. Also the sample data the dev preview and the snapshot tests render.

use crate::state::AppState;
use domain::market::{MARKETS, Market};
use minijinja::{Environment, Value, context};
use serde::Serialize;
use std::sync::OnceLock;

/// What kind of message a row of the outbox is (its `kind` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    PasswordReset,
    AccountConfirmation,
    DuplicateRegistration,
    OrderConfirmation,
    OrderShipped,
    OrderCancelled,
    OrderRefunded,
    NewsletterConfirmation,
}

impl Kind {
    pub const ALL: [Kind; 8] = [
        Kind::PasswordReset,
        Kind::AccountConfirmation,
        Kind::DuplicateRegistration,
        Kind::OrderConfirmation,
        Kind::OrderShipped,
        Kind::OrderCancelled,
        Kind::OrderRefunded,
        Kind::NewsletterConfirmation,
    ];

    /// The stored name, also the templates' base name (`mail/{code}.txt`, `.html`).
    pub fn code(self) -> &'static str {
        match self {
            Kind::PasswordReset => "password_reset",
            Kind::AccountConfirmation => "account_confirmation",
            Kind::DuplicateRegistration => "duplicate_registration",
            Kind::OrderConfirmation => "order_confirmation",
            Kind::OrderShipped => "order_shipped",
            Kind::OrderCancelled => "order_cancelled",
            Kind::OrderRefunded => "order_refunded",
            Kind::NewsletterConfirmation => "newsletter_confirmation",
        }
    }
}

/// A rendered message, ready for the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Email {
    pub to: String,
    pub kind: Kind,
    pub market: Market,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// The one-click unsubscribe URL (`List-Unsubscribe`), for marketing messages only.
    pub list_unsubscribe: Option<String>,
}

/// What every message of a market shows: the shop's name and the market's links.
#[derive(Clone, Debug)]
pub struct Letterhead {
    pub shop_name: String,
    /// The public origin (`https://shop.example`), without a trailing slash.
    pub base_url: String,
    pub market: Market,
}

impl Letterhead {
    /// The shop's name from the catalog and the API's public origin, for `market`.
    pub fn of(state: &AppState, market: Market) -> Letterhead {
        Letterhead {
            shop_name: state.catalog().store.name.clone(),
            base_url: state.config().public_base_url.trim_end_matches('/').into(),
            market,
        }
    }

    /// The absolute URL of a site path in this market (`/bag` → `https://…/us/bag`).
    pub fn link(&self, site_path: &str) -> String {
        format!("{}{}", self.base_url, self.market.path(site_path))
    }

    /// An amount in minor units, in the market's currency format (`£1,045.00`, `$12.50`).
    pub fn money(&self, minor: i64) -> String {
        domain::money::Money::new(minor, self.market.currency).format()
    }
}

/// One order line as the order messages list it.
#[derive(Clone, Debug, Serialize)]
pub struct OrderLine {
    pub name: String,
    /// `Colour: Emerald Green, Size: 10`; empty when the line has no options.
    pub options: String,
    pub quantity: i64,
    /// The line's total, formatted.
    pub price: String,
}

/// An order as the order messages show it; amounts are already formatted for the market.
#[derive(Clone, Debug, Serialize)]
pub struct OrderSummary {
    pub number: String,
    pub lines: Vec<OrderLine>,
    pub subtotal: String,
    /// None when nothing was discounted.
    pub discount: Option<String>,
    pub shipping: String,
    pub shipping_method: String,
    pub total: String,
    /// The order confirmation page, in the order's market.
    pub link: String,
}

/// The templates, by name, compiled into the binary.
const TEMPLATES: &[(&str, &str)] = &[
    (
        "mail/layout.html",
        include_str!("../../../site-src/templates/mail/layout.html"),
    ),
    (
        "mail/layout.txt",
        include_str!("../../../site-src/templates/mail/layout.txt"),
    ),
    (
        "mail/macros.html",
        include_str!("../../../site-src/templates/mail/macros.html"),
    ),
    (
        "mail/order_lines.txt",
        include_str!("../../../site-src/templates/mail/order_lines.txt"),
    ),
    (
        "mail/password_reset.html",
        include_str!("../../../site-src/templates/mail/password_reset.html"),
    ),
    (
        "mail/password_reset.txt",
        include_str!("../../../site-src/templates/mail/password_reset.txt"),
    ),
    (
        "mail/account_confirmation.html",
        include_str!("../../../site-src/templates/mail/account_confirmation.html"),
    ),
    (
        "mail/account_confirmation.txt",
        include_str!("../../../site-src/templates/mail/account_confirmation.txt"),
    ),
    (
        "mail/duplicate_registration.html",
        include_str!("../../../site-src/templates/mail/duplicate_registration.html"),
    ),
    (
        "mail/duplicate_registration.txt",
        include_str!("../../../site-src/templates/mail/duplicate_registration.txt"),
    ),
    (
        "mail/order_confirmation.html",
        include_str!("../../../site-src/templates/mail/order_confirmation.html"),
    ),
    (
        "mail/order_confirmation.txt",
        include_str!("../../../site-src/templates/mail/order_confirmation.txt"),
    ),
    (
        "mail/order_shipped.html",
        include_str!("../../../site-src/templates/mail/order_shipped.html"),
    ),
    (
        "mail/order_shipped.txt",
        include_str!("../../../site-src/templates/mail/order_shipped.txt"),
    ),
    (
        "mail/order_cancelled.html",
        include_str!("../../../site-src/templates/mail/order_cancelled.html"),
    ),
    (
        "mail/order_cancelled.txt",
        include_str!("../../../site-src/templates/mail/order_cancelled.txt"),
    ),
    (
        "mail/order_refunded.html",
        include_str!("../../../site-src/templates/mail/order_refunded.html"),
    ),
    (
        "mail/order_refunded.txt",
        include_str!("../../../site-src/templates/mail/order_refunded.txt"),
    ),
    (
        "mail/newsletter_confirmation.html",
        include_str!("../../../site-src/templates/mail/newsletter_confirmation.html"),
    ),
    (
        "mail/newsletter_confirmation.txt",
        include_str!("../../../site-src/templates/mail/newsletter_confirmation.txt"),
    ),
];

/// Compiles the templates now (the servers call it when they build the router), so the first
/// email is not paying for it inside the transaction of the order or reset it reports.
pub fn prepare() {
    environment();
}

fn environment() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        // A missing value is a template bug: fail the render (and the snapshot tests), never
        // send an email with a hole in it.
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        // The site's escaping (markupsafe's five characters), so URLs stay readable.
        env.set_formatter(domain::html::html_formatter);
        for (name, source) in TEMPLATES {
            env.add_template(name, source)
                .unwrap_or_else(|e| panic!("mail template {name}: {e:#}"));
        }
        env
    })
}

/// Renders `kind` to `to` with the message's own values (`data`, merged into the context).
/// Fails only on a template bug: a missing value, or a subject that is not one line.
pub fn render(
    kind: Kind,
    head: &Letterhead,
    to: &str,
    data: Value,
    list_unsubscribe: Option<String>,
) -> anyhow::Result<Email> {
    let env = environment();
    let ctx = context! {
        shop_name => head.shop_name.clone(),
        home_url => head.link("/"),
        html_lang => head.market.html_lang,
        market => head.market.code,
        ..data
    };
    let text_template = env.get_template(&format!("mail/{}.txt", kind.code()))?;
    let mut captured = text_template.render_captured(ctx.clone())?;
    let subject = captured.with_state_mut(|s| s.render_block("subject"))?;
    let subject = subject.trim().to_string();
    // The subject becomes a header: it must be one line (lettre encodes whatever it holds, so a
    // line break could not start a header, but it would be a broken subject).
    anyhow::ensure!(
        !subject.is_empty() && !subject.contains(['\r', '\n']),
        "mail/{}.txt: the subject block must be one non-empty line",
        kind.code()
    );
    let text = tidy_text(captured.output());
    let html = env
        .get_template(&format!("mail/{}.html", kind.code()))?
        .render(context! { subject => subject.clone(), ..ctx })?;
    Ok(Email {
        to: to.to_string(),
        kind,
        market: head.market,
        subject,
        text,
        html: format!("{}\n", html.trim()),
        list_unsubscribe,
    })
}

/// The text part without the template's blank edges, with one final newline.
fn tidy_text(text: &str) -> String {
    let lines: Vec<&str> = text.trim().lines().map(str::trim_end).collect();
    format!("{}\n", lines.join("\n"))
}

/// A password-reset link valid for `minutes`.
pub fn password_reset(
    head: &Letterhead,
    to: &str,
    link: &str,
    minutes: i64,
) -> anyhow::Result<Email> {
    render(
        Kind::PasswordReset,
        head,
        to,
        context! { link, minutes },
        None,
    )
}

/// The link that confirms a registration and creates the account, valid for `hours`.
pub fn account_confirmation(
    head: &Letterhead,
    to: &str,
    link: &str,
    hours: i64,
) -> anyhow::Result<Email> {
    render(
        Kind::AccountConfirmation,
        head,
        to,
        context! { link, hours },
        None,
    )
}

/// The note to an account's owner that someone tried to register with its email.
pub fn duplicate_registration(head: &Letterhead, to: &str) -> anyhow::Result<Email> {
    let link = head.link("/forgot-password");
    render(
        Kind::DuplicateRegistration,
        head,
        to,
        context! { link },
        None,
    )
}

/// One of the order messages (confirmation, shipped, cancelled, refunded). `refunded` says, for
/// a cancellation, whether money already taken was refunded (else the payment was released).
pub fn order(
    kind: Kind,
    head: &Letterhead,
    to: &str,
    order: &OrderSummary,
    refunded: bool,
) -> anyhow::Result<Email> {
    let order = Value::from(minijinja::value::Serde(order));
    render(kind, head, to, context! { order, refunded }, None)
}

/// The newsletter sign-up's confirmation, with its unsubscribe link (also `List-Unsubscribe`).
pub fn newsletter_confirmation(
    head: &Letterhead,
    to: &str,
    unsubscribe_link: &str,
) -> anyhow::Result<Email> {
    render(
        Kind::NewsletterConfirmation,
        head,
        to,
        context! { unsubscribe_link },
        Some(unsubscribe_link.to_string()),
    )
}

/// Every message in every market with sample data: the dev preview and the snapshot tests.
pub fn samples(shop_name: &str, base_url: &str) -> Vec<Email> {
    let mut out = Vec::new();
    for market in MARKETS {
        let head = Letterhead {
            shop_name: shop_name.to_string(),
            base_url: base_url.trim_end_matches('/').to_string(),
            market,
        };
        let to = "ada.lovelace@example.com";
        for kind in Kind::ALL {
            let email = match kind {
                Kind::PasswordReset => password_reset(
                    &head,
                    to,
                    &format!("{}?token={}", head.link("/updatePassword"), "0".repeat(64)),
                    60,
                ),
                Kind::AccountConfirmation => account_confirmation(
                    &head,
                    to,
                    &format!("{}?token={}", head.link("/confirm-account"), "0".repeat(64)),
                    24,
                ),
                Kind::DuplicateRegistration => duplicate_registration(&head, to),
                Kind::NewsletterConfirmation => newsletter_confirmation(
                    &head,
                    to,
                    &format!(
                        "{}/api/marketing-consent/unsubscribe?token={}",
                        head.base_url,
                        "0".repeat(64)
                    ),
                ),
                order_kind => order(
                    order_kind,
                    &head,
                    to,
                    &sample_order(&head),
                    order_kind == Kind::OrderCancelled,
                ),
            };
            out.push(email.unwrap_or_else(|e| panic!("sample {}: {e:#}", kind.code())));
        }
    }
    out
}

fn sample_order(head: &Letterhead) -> OrderSummary {
    OrderSummary {
        number: "1000012345".into(),
        lines: vec![
            OrderLine {
                name: "Satin Slip Midi Dress".into(),
                options: "Colour: Emerald Green, Size: 10, Length: Regular".into(),
                quantity: 1,
                price: head.money(8900),
            },
            OrderLine {
                name: "Linen Cushion <Sage & Stone>".into(),
                options: String::new(),
                quantity: 2,
                price: head.money(104_500),
            },
        ],
        subtotal: head.money(113_400),
        discount: Some(head.money(1000)),
        shipping: head.money(495),
        shipping_method: "Standard Delivery".into(),
        total: head.money(112_895),
        link: head.link("/order-confirmation/0a1b2c3d/4e5f6a7b"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sample_renders_with_one_line_subjects_and_market_links() {
        let samples = samples("Lark & Finch", "https://shop.example/");
        assert_eq!(samples.len(), Kind::ALL.len() * MARKETS.len());
        for email in samples {
            assert!(!email.subject.contains('\n'));
            let prefix = format!("https://shop.example{}", email.market.path_prefix);
            assert!(email.text.contains(&prefix), "{}", email.text);
            // The HTML escapes the data it shows (the sample's "<Sage & Stone>").
            assert!(!email.html.contains("<Sage"));
        }
    }
}
