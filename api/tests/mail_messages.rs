//! Every email in every market, rendered from the templates with the preview's sample data:
//! subject, plain-text part and HTML part as snapshots (tests/snapshots/mail_messages__*.snap),
//! plus the rules a snapshot cannot show at a glance — the market's currency, links under its
//! prefix, the shop's name, and shopper text escaped in the HTML.

use api::mail::message::{Kind, samples};

const SHOP: &str = "Lark & Finch";
const BASE: &str = "https://shop.example";

#[test]
fn every_message_in_every_market_matches_its_snapshot() {
    for email in samples(SHOP, BASE) {
        let name = format!("{}-{}", email.kind.code(), email.market.code);
        let unsubscribe = email
            .list_unsubscribe
            .as_deref()
            .map(|u| format!("List-Unsubscribe: <{u}>\n"))
            .unwrap_or_default();
        let shown = format!(
            "Subject: {}\n{unsubscribe}\n----- text/plain -----\n{}\n----- text/html -----\n{}",
            email.subject, email.text, email.html
        );
        insta::assert_snapshot!(name, shown);
    }
}

#[test]
fn amounts_and_links_follow_the_market() {
    for email in samples(SHOP, BASE) {
        let prefix = format!("{BASE}{}", email.market.path_prefix);
        for part in [&email.text, &email.html] {
            assert!(
                part.contains(&format!("{prefix}/"))
                    || part.contains(&format!("{prefix}\""))
                    || part.contains(&prefix),
                "{}",
                email.kind.code()
            );
            assert!(part.contains("Lark &"), "the shop's name");
        }
        let order_kind = !matches!(
            email.kind,
            Kind::PasswordReset
                | Kind::AccountConfirmation
                | Kind::DuplicateRegistration
                | Kind::NewsletterConfirmation
        );
        if order_kind {
            let symbol = email.market.currency.symbol();
            assert!(
                email.text.contains(&format!("{symbol}1,128.95")),
                "{}",
                email.text
            );
            for other in ["£", "$", "€"].iter().filter(|s| **s != symbol) {
                assert!(
                    !email.text.contains(other),
                    "{} shows {other}",
                    email.market.code
                );
            }
            assert!(
                email
                    .text
                    .contains(&format!("{prefix}/order-confirmation/"))
            );
            assert!(
                email
                    .html
                    .contains("Linen Cushion &lt;Sage &amp; Stone&gt;")
            );
        }
    }
}
