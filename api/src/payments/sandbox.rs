//! The sandbox payment provider: the whole payment flow offline, in process, with deterministic
//! test cards (one authorised, one declined, one that needs a 3-D Secure challenge, one that
//! fails with a provider error), gift cards with balances, PayPal / Klarna approval pages, and
//! Apple Pay / Google Pay (a merchant session, and any well-formed wallet payment data authorises).
//! Its browser-facing pages (tokenisation, challenge, approval) are in `sandbox_pages`; card
//! numbers only ever reach those, and this side keeps only what a token stands for.

use super::{
    Amount, AppleSessionRequest, Authorise, Created, MethodInfo, Outcome, Provider, ProviderError,
};
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

/// Where `storefront dev` mounts the sandbox's pages.
pub const MOUNT: &str = "/sandbox-pay";

/// The test cards (any future expiry, any 3-digit CVC).
pub const CARD_AUTHORISED: &str = "4242424242424242";
pub const CARD_DECLINED: &str = "4000000000000002";
pub const CARD_CHALLENGE: &str = "4000000000003220";
pub const CARD_PROVIDER_ERROR: &str = "4000000000000119";
/// Gift cards (PIN 1234): one with 500.00, one with 5.00, in whatever currency is charged.
pub const GIFT_CARDS: &[(&str, &str, i64)] = &[
    ("6036280000000001", "1234", 50_000),
    ("6036280000000002", "1234", 500),
];

pub const DECLINED: &str = "Your card was declined.";
pub const CHALLENGE_FAILED: &str = "3-D Secure authentication failed.";
pub const NOT_ENOUGH_BALANCE: &str = "Not enough balance on the gift card.";
pub const APPROVAL_CANCELLED: &str = "The payment was cancelled.";

/// What a card token does when it is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Card {
    Authorise,
    Decline,
    Challenge,
    Fail,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Instrument {
    Card(Card),
    GiftCard {
        number: String,
    },
    /// Apple Pay or Google Pay payment data: the wallet has already authenticated the shopper.
    Wallet,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Status {
    /// Waiting for the shopper at the challenge or approval page.
    AwaitingShopper,
    Authorised,
    Captured,
    Cancelled,
    Refunded,
    Refused(String),
}

#[derive(Debug, Clone)]
struct Payment {
    amount: Amount,
    status: Status,
    return_url: String,
    method: String,
    gift_card: Option<String>,
}

#[derive(Default)]
struct State {
    /// Token → what it stands for; a token is used once.
    tokens: HashMap<String, Instrument>,
    payments: HashMap<String, Payment>,
    /// Idempotency key → the payment its first authorisation created.
    created: HashMap<String, Created>,
    /// Gift card number → what is left on it (minor units).
    balances: HashMap<String, i64>,
    /// Wallet payment data already paid with: a wallet token pays once, as at a real provider.
    used_wallet_tokens: HashSet<String>,
    next: u64,
}

impl State {
    fn psp_reference(&mut self) -> String {
        self.next += 1;
        format!("SBX{:013}", self.next)
    }
}

/// The sandbox. `base` is the public origin the browser reaches it at (for absolute URLs in
/// redirects): the pages are same-origin paths under `MOUNT`.
pub struct Sandbox {
    state: Mutex<State>,
}

impl Default for Sandbox {
    fn default() -> Self {
        Sandbox::new()
    }
}

/// A card number's problem, as the tokenisation answer names it.
#[derive(Debug, PartialEq, Eq)]
pub enum CardProblem {
    Number,
    Expiry,
    SecurityCode,
    GiftCard,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        let balances = GIFT_CARDS
            .iter()
            .map(|(n, _, b)| (n.to_string(), *b))
            .collect();
        Sandbox {
            state: Mutex::new(State {
                balances,
                ..State::default()
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Tokenises a card: Luhn-valid number, a month and year not past (`now_year`/`now_month`),
    /// a 3- or 4-digit code. The test numbers choose the outcome; any other valid card
    /// authorises.
    pub fn tokenize_card(
        &self,
        number: &str,
        expiry: (u32, u32),
        cvc: &str,
        today: (u32, u32),
    ) -> Result<String, CardProblem> {
        let digits: String = number.chars().filter(|c| !c.is_whitespace()).collect();
        if !(12..=19).contains(&digits.len()) || !luhn(&digits) {
            return Err(CardProblem::Number);
        }
        let (month, year) = expiry;
        if !(1..=12).contains(&month) || (year, month) < today {
            return Err(CardProblem::Expiry);
        }
        if !(3..=4).contains(&cvc.len()) || !cvc.bytes().all(|b| b.is_ascii_digit()) {
            return Err(CardProblem::SecurityCode);
        }
        let card = match digits.as_str() {
            CARD_DECLINED => Card::Decline,
            CARD_CHALLENGE => Card::Challenge,
            CARD_PROVIDER_ERROR => Card::Fail,
            _ => Card::Authorise,
        };
        Ok(self.issue(Instrument::Card(card)))
    }

    /// Tokenises a gift card: one of the sandbox's numbers with its PIN.
    pub fn tokenize_gift_card(&self, number: &str, pin: &str) -> Result<String, CardProblem> {
        let digits: String = number.chars().filter(|c| !c.is_whitespace()).collect();
        let known = GIFT_CARDS
            .iter()
            .any(|(n, p, _)| *n == digits && *p == pin.trim());
        if !known {
            return Err(CardProblem::GiftCard);
        }
        Ok(self.issue(Instrument::GiftCard { number: digits }))
    }

    fn issue(&self, instrument: Instrument) -> String {
        let token = format!("sbx_tok_{}", crate::store::random_id(16));
        self.lock().tokens.insert(token.clone(), instrument);
        token
    }

    /// The page the shopper is sent to for a payment awaiting them: `(method, amount)` for the
    /// page to show, or None when there is no such payment (or it is no longer waiting).
    pub fn awaiting(&self, psp_reference: &str) -> Option<(String, Amount)> {
        let state = self.lock();
        let p = state.payments.get(psp_reference)?;
        (p.status == Status::AwaitingShopper).then(|| (p.method.clone(), p.amount.clone()))
    }

    /// The shopper finished the challenge or approval page (`passed` or not): the payment is
    /// decided, and the answer is the shop's return URL to send them back to.
    pub fn finish(&self, psp_reference: &str, passed: bool) -> Option<String> {
        let mut state = self.lock();
        let p = state.payments.get_mut(psp_reference)?;
        if p.status != Status::AwaitingShopper {
            return None;
        }
        p.status = if passed {
            Status::Authorised
        } else if p.method == "scheme" {
            Status::Refused(CHALLENGE_FAILED.into())
        } else {
            Status::Refused(APPROVAL_CANCELLED.into())
        };
        Some(p.return_url.clone())
    }

    /// What is left on a gift card (tests and the sandbox pages).
    pub fn balance(&self, number: &str) -> Option<i64> {
        self.lock().balances.get(number).copied()
    }
}

impl Payment {
    fn outcome(&self, psp_reference: &str) -> Outcome {
        match &self.status {
            Status::AwaitingShopper => Outcome::AwaitingShopper {
                url: format!(
                    "{MOUNT}/{}/{psp_reference}",
                    if self.method == "scheme" {
                        "challenge"
                    } else {
                        "redirect"
                    }
                ),
            },
            Status::Authorised | Status::Captured | Status::Refunded => Outcome::Authorised,
            Status::Cancelled => Outcome::Refused {
                reason: APPROVAL_CANCELLED.into(),
            },
            Status::Refused(reason) => Outcome::Refused {
                reason: reason.clone(),
            },
        }
    }
}

/// The Luhn check digit rule every card number follows.
/// Checks the shape of a wallet's payment data: Apple Pay's token is a JSON object with its
/// encrypted `paymentData`; Google Pay's is the non-empty string its sheet returned.
fn wallet_token(method: &str, token: &str) -> Result<(), String> {
    if method == "applepay" {
        let parsed: Option<serde_json::Value> = serde_json::from_str(token).ok();
        if !parsed.is_some_and(|v| v.get("paymentData").is_some_and(|d| d.is_object())) {
            return Err("not an Apple Pay payment token".into());
        }
    }
    Ok(())
}

fn chrono_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

pub fn luhn(digits: &str) -> bool {
    let mut sum = 0;
    for (i, b) in digits.bytes().rev().enumerate() {
        if !b.is_ascii_digit() {
            return false;
        }
        let mut d = u32::from(b - b'0');
        if i % 2 == 1 {
            d *= 2;
            if d > 9 {
                d -= 9;
            }
        }
        sum += d;
    }
    sum % 10 == 0
}

#[async_trait::async_trait]
impl Provider for Sandbox {
    async fn payment_methods(
        &self,
        country_code: &str,
        amount: &Amount,
    ) -> Result<Vec<MethodInfo>, ProviderError> {
        let method = |kind: &str, name: &str, brands: &[&str]| MethodInfo {
            kind: kind.into(),
            name: name.into(),
            brands: brands.iter().map(|b| b.to_string()).collect(),
            configuration: Default::default(),
        };
        let mut methods = vec![
            method("scheme", "Credit or debit card", &["visa", "mc", "amex"]),
            method("applepay", "Apple Pay", &["visa", "mc", "amex"]),
            method("googlepay", "Google Pay", &["visa", "mc", "amex"]),
            method("paypal", "PayPal", &[]),
        ];
        // Google's test environment and its example gateway: the sheet returns test payment data.
        methods[2].configuration = [
            ("environment", "TEST"),
            ("gateway", "example"),
            ("gateway_merchant_id", "exampleGatewayMerchantId"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        // Klarna pays later for amounts from 1.00 to 5,000.00, and not to the Channel Islands.
        if (100..=500_000).contains(&amount.value) && !matches!(country_code, "JE" | "GG") {
            methods.push(method("klarna", "Klarna", &[]));
        }
        methods.push(method("giftcard", "Gift card", &["givex"]));
        Ok(methods)
    }

    async fn authorise(&self, request: &Authorise<'_>) -> Result<Created, ProviderError> {
        let op = "payments";
        let mut state = self.lock();
        if let Some(first) = state.created.get(request.idempotency_key) {
            return Ok(first.clone());
        }
        let instrument = match (request.method, request.token) {
            ("paypal" | "klarna", _) => None,
            ("applepay" | "googlepay", Some(token)) => {
                if let Err(message) = wallet_token(request.method, token) {
                    return Err(ProviderError::Rejected { op, message });
                }
                if !state.used_wallet_tokens.insert(token.to_string()) {
                    return Err(ProviderError::Rejected {
                        op,
                        message: "the wallet payment data was already used".into(),
                    });
                }
                Some(Instrument::Wallet)
            }
            (_, Some(token)) => match state.tokens.get(token) {
                Some(i) => Some(i.clone()),
                None => {
                    return Err(ProviderError::Rejected {
                        op,
                        message: "unknown or used payment token".into(),
                    });
                }
            },
            (method, None) => {
                return Err(ProviderError::Rejected {
                    op,
                    message: format!("{method} needs a payment token"),
                });
            }
        };
        if let Some(Instrument::Card(Card::Fail)) = instrument {
            return Err(ProviderError::Status { op, status: 500 });
        }
        if let Some(token) = request.token {
            state.tokens.remove(token);
        }
        let psp = state.psp_reference();
        let mut payment = Payment {
            amount: request.amount.clone(),
            status: Status::Authorised,
            return_url: request.return_url.to_string(),
            method: request.method.to_string(),
            gift_card: None,
        };
        payment.status = match instrument {
            None | Some(Instrument::Card(Card::Challenge)) => Status::AwaitingShopper,
            Some(Instrument::Card(Card::Decline)) => Status::Refused(DECLINED.into()),
            Some(Instrument::GiftCard { number }) => {
                let left = state.balances.get(&number).copied().unwrap_or(0);
                if left < request.amount.value {
                    Status::Refused(NOT_ENOUGH_BALANCE.into())
                } else {
                    state
                        .balances
                        .insert(number.clone(), left - request.amount.value);
                    payment.gift_card = Some(number);
                    Status::Authorised
                }
            }
            Some(Instrument::Card(_) | Instrument::Wallet) => Status::Authorised,
        };
        let created = Created {
            outcome: payment.outcome(&psp),
            psp_reference: psp.clone(),
        };
        state.payments.insert(psp, payment);
        state
            .created
            .insert(request.idempotency_key.to_string(), created.clone());
        Ok(created)
    }

    async fn status(&self, psp_reference: &str) -> Result<Outcome, ProviderError> {
        let state = self.lock();
        state
            .payments
            .get(psp_reference)
            .map(|p| p.outcome(psp_reference))
            .ok_or(ProviderError::Status {
                op: "payments",
                status: 404,
            })
    }

    async fn capture(
        &self,
        psp_reference: &str,
        amount: &Amount,
        _idempotency_key: &str,
    ) -> Result<(), ProviderError> {
        let mut state = self.lock();
        let p = state
            .payments
            .get_mut(psp_reference)
            .ok_or(ProviderError::Status {
                op: "captures",
                status: 422,
            })?;
        match p.status {
            Status::Captured => Ok(()),
            Status::Authorised if p.amount == *amount => {
                p.status = Status::Captured;
                Ok(())
            }
            _ => Err(ProviderError::Status {
                op: "captures",
                status: 422,
            }),
        }
    }

    async fn cancel(
        &self,
        psp_reference: &str,
        _idempotency_key: &str,
    ) -> Result<(), ProviderError> {
        let mut state = self.lock();
        let Some(p) = state.payments.get_mut(psp_reference) else {
            return Err(ProviderError::Status {
                op: "cancels",
                status: 422,
            });
        };
        let gift = match p.status {
            Status::Authorised | Status::AwaitingShopper => {
                let was_reserved = p.status == Status::Authorised;
                p.status = Status::Cancelled;
                p.gift_card
                    .clone()
                    .filter(|_| was_reserved)
                    .map(|n| (n, p.amount.value))
            }
            Status::Cancelled | Status::Refused(_) => None,
            _ => {
                return Err(ProviderError::Status {
                    op: "cancels",
                    status: 422,
                });
            }
        };
        if let Some((number, value)) = gift {
            *state.balances.entry(number).or_insert(0) += value;
        }
        Ok(())
    }

    async fn refund(
        &self,
        psp_reference: &str,
        amount: &Amount,
        _idempotency_key: &str,
    ) -> Result<(), ProviderError> {
        let mut state = self.lock();
        let Some(p) = state.payments.get_mut(psp_reference) else {
            return Err(ProviderError::Status {
                op: "refunds",
                status: 422,
            });
        };
        if p.status != Status::Captured || amount.value > p.amount.value {
            return Err(ProviderError::Status {
                op: "refunds",
                status: 422,
            });
        }
        p.status = Status::Refunded;
        let gift = p.gift_card.clone().map(|n| (n, amount.value));
        if let Some((number, value)) = gift {
            *state.balances.entry(number).or_insert(0) += value;
        }
        Ok(())
    }

    async fn apple_pay_session(
        &self,
        request: &AppleSessionRequest<'_>,
    ) -> Result<serde_json::Value, ProviderError> {
        // The shape Apple's payment-session answer has; the sandbox signs nothing.
        let now = chrono_millis();
        Ok(serde_json::json!({
            "epochTimestamp": now,
            "expiresAt": now + 3_600_000,
            "merchantSessionIdentifier": format!("SBX_SESSION_{}", crate::store::random_id(16)),
            "nonce": crate::store::random_id(4),
            "merchantIdentifier": "merchant.sandbox.storefront",
            "domainName": request.domain,
            "displayName": request.display_name,
            "signature": "sandbox",
        }))
    }

    fn tokenize_url(&self) -> String {
        format!("{MOUNT}/v1/tokens")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TODAY: (u32, u32) = (2026, 11);

    fn request<'a>(key: &'a str, method: &'a str, token: Option<&'a str>) -> Authorise<'a> {
        Authorise {
            reference: "order-1",
            idempotency_key: key,
            amount: Amount::new("GBP", 4_999),
            country_code: "GB",
            method,
            token,
            return_url: "/checkout/return?order_id=order-1",
            shopper_email: "ada@example.com",
            description: "Order 1",
        }
    }

    #[test]
    fn card_numbers_are_checked_before_a_token_is_issued() {
        let s = Sandbox::new();
        assert!(luhn(CARD_AUTHORISED) && luhn(CARD_DECLINED) && luhn(CARD_CHALLENGE));
        assert!(luhn(CARD_PROVIDER_ERROR));
        assert_eq!(
            s.tokenize_card("4242 4242 4242 4241", (12, 2030), "123", TODAY),
            Err(CardProblem::Number)
        );
        assert_eq!(
            s.tokenize_card(CARD_AUTHORISED, (10, 2026), "123", TODAY),
            Err(CardProblem::Expiry)
        );
        assert_eq!(
            s.tokenize_card(CARD_AUTHORISED, (13, 2030), "123", TODAY),
            Err(CardProblem::Expiry)
        );
        assert_eq!(
            s.tokenize_card(CARD_AUTHORISED, (11, 2026), "12", TODAY),
            Err(CardProblem::SecurityCode)
        );
        assert!(
            s.tokenize_card("4242 4242 4242 4242", (11, 2026), "123", TODAY)
                .is_ok()
        );
        assert_eq!(
            s.tokenize_gift_card("6036280000000001", "9999"),
            Err(CardProblem::GiftCard)
        );
    }

    #[tokio::test]
    async fn each_test_card_gives_its_outcome_once_per_key() {
        let s = Sandbox::new();
        let ok = s
            .tokenize_card(CARD_AUTHORISED, (1, 2030), "123", TODAY)
            .unwrap();
        let first = s
            .authorise(&request("k1", "scheme", Some(&ok)))
            .await
            .unwrap();
        assert_eq!(first.outcome, Outcome::Authorised);
        // The same key answers the same payment even though the token is used up.
        assert_eq!(
            s.authorise(&request("k1", "scheme", Some(&ok)))
                .await
                .unwrap(),
            first
        );
        // A new key with the used token is refused by the provider.
        assert!(
            s.authorise(&request("k2", "scheme", Some(&ok)))
                .await
                .is_err()
        );
        let declined = s
            .tokenize_card(CARD_DECLINED, (1, 2030), "123", TODAY)
            .unwrap();
        let refused = s
            .authorise(&request("k3", "scheme", Some(&declined)))
            .await
            .unwrap();
        assert_eq!(
            refused.outcome,
            Outcome::Refused {
                reason: DECLINED.into()
            }
        );
        let failing = s
            .tokenize_card(CARD_PROVIDER_ERROR, (1, 2030), "123", TODAY)
            .unwrap();
        assert!(matches!(
            s.authorise(&request("k4", "scheme", Some(&failing))).await,
            Err(ProviderError::Status { status: 500, .. })
        ));
        // Captured once, then refunded; a second capture of the same payment changes nothing.
        let amount = Amount::new("GBP", 4_999);
        s.capture(&first.psp_reference, &amount, "c1")
            .await
            .unwrap();
        s.capture(&first.psp_reference, &amount, "c1")
            .await
            .unwrap();
        s.refund(&first.psp_reference, &amount, "r1").await.unwrap();
        assert!(s.cancel(&first.psp_reference, "x").await.is_err());
    }

    #[tokio::test]
    async fn a_challenge_goes_to_the_page_and_back_decided() {
        let s = Sandbox::new();
        for passed in [true, false] {
            let token = s
                .tokenize_card(CARD_CHALLENGE, (1, 2030), "123", TODAY)
                .unwrap();
            let key = format!("c{passed}");
            let created = s
                .authorise(&request(&key, "scheme", Some(&token)))
                .await
                .unwrap();
            let psp = created.psp_reference;
            assert_eq!(
                created.outcome,
                Outcome::AwaitingShopper {
                    url: format!("{MOUNT}/challenge/{psp}")
                }
            );
            assert!(s.awaiting(&psp).is_some());
            assert_eq!(
                s.finish(&psp, passed).as_deref(),
                Some("/checkout/return?order_id=order-1")
            );
            let outcome = s.status(&psp).await.unwrap();
            assert_eq!(outcome == Outcome::Authorised, passed);
            assert!(s.awaiting(&psp).is_none(), "the page works once");
            assert!(s.finish(&psp, true).is_none());
        }
    }

    #[tokio::test]
    async fn gift_cards_pay_within_their_balance_and_get_it_back_on_cancel() {
        let s = Sandbox::new();
        let small = s.tokenize_gift_card("6036 2800 0000 0002", "1234").unwrap();
        assert_eq!(
            s.authorise(&request("g1", "giftcard", Some(&small)))
                .await
                .unwrap()
                .outcome,
            Outcome::Refused {
                reason: NOT_ENOUGH_BALANCE.into()
            }
        );
        let big = s.tokenize_gift_card("6036280000000001", "1234").unwrap();
        let created = s
            .authorise(&request("g2", "giftcard", Some(&big)))
            .await
            .unwrap();
        assert_eq!(created.outcome, Outcome::Authorised);
        assert_eq!(s.balance("6036280000000001"), Some(50_000 - 4_999));
        s.cancel(&created.psp_reference, "x").await.unwrap();
        assert_eq!(s.balance("6036280000000001"), Some(50_000));
    }

    #[tokio::test]
    async fn methods_depend_on_the_amount_and_the_country() {
        let s = Sandbox::new();
        let kinds = |m: Vec<MethodInfo>| m.into_iter().map(|m| m.kind).collect::<Vec<_>>();
        assert_eq!(
            kinds(
                s.payment_methods("GB", &Amount::new("GBP", 4_999))
                    .await
                    .unwrap()
            ),
            [
                "scheme",
                "applepay",
                "googlepay",
                "paypal",
                "klarna",
                "giftcard"
            ]
        );
        assert_eq!(
            kinds(
                s.payment_methods("JE", &Amount::new("GBP", 4_999))
                    .await
                    .unwrap()
            ),
            ["scheme", "applepay", "googlepay", "paypal", "giftcard"]
        );
        assert_eq!(
            kinds(
                s.payment_methods("GB", &Amount::new("GBP", 50))
                    .await
                    .unwrap()
            ),
            ["scheme", "applepay", "googlepay", "paypal", "giftcard"]
        );
    }
}
