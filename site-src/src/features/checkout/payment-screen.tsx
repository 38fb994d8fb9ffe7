// Checkout review and pay (/checkout/payment): the details sent so far (each with Edit), the
// payment methods the provider offers that this browser can complete (in its order; see
// wallets.ts), and Place order (which opens the wallet's sheet for Apple Pay and Google Pay).
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { AddressBlock } from '../../components/AddressBlock';
import { Form, FormError } from '../../components/Field';
import { formatMoney } from '../../lib/money';
import { readDeclined, rememberDeclined } from './attempt';
import { countryOf } from './address-rules';
import { cardErrors, cardRequest, giftCardErrors, giftCardRequest, NO_CARD, NO_GIFT_CARD } from './card-details';
import type { Step } from './checkout-api/checkout-view';
import { getPaymentMethods, type PaymentMethod, type PaymentMethods, type PaymentMethodType } from './checkout-api/get-payment-methods';
import type { OrderPayment } from './checkout-api/place-order';
import { CheckoutStep, type StepProps } from './checkout-step';
import { readDraft, saveDraft } from './draft';
import { CardFields, GiftCardFields } from './payment-fields';
import { fieldsOf, focusFirstInvalid, messageOf, stepPath } from './steps';
import { NOT_COMPLETED, submitOrder } from './submit-order';
import { tokenize } from './tokenize';
import { payWithApplePay, payWithGooglePay, type WalletOutcome } from './wallet-pay';
import { usableMethods, walletSupport } from './wallets';

/** What Place order opens for a wallet: its sheet confirms the payment. */
const WALLET_HINT: Partial<Record<PaymentMethodType, string>> = {
  applepay: 'Press Place order to pay with Apple Pay.',
  googlepay: 'Press Place order to pay with Google Pay.',
};

export default function PaymentScreen({ prefix }: { prefix: string }): ReactElement {
  return (
    <CheckoutStep step="payment" prefix={prefix}>
      {(props) => (
        <>
          <Review {...props} />
          <PaymentForm {...props} />
        </>
      )}
    </CheckoutStep>
  );
}

function Review({ view, prefix }: StepProps): ReactElement {
  const consignment = view.consignment;
  const option = consignment?.shipping_options.find((o) => o.id === consignment.shipping_option_id);
  const countryName = (code: string): string => countryOf(view.countries, code)?.name ?? code;
  const edit = (step: Step, what: string): ReactElement => (
    <a className="review__edit" href={stepPath(prefix, step)}>
      Edit<span className="visually-hidden"> {what}</span>
    </a>
  );
  return (
    <section className="checkout__section" aria-labelledby="review-title">
      <h2 className="checkout__title" id="review-title">
        Your details
      </h2>
      <dl className="review">
        <div>
          <dt>Email</dt>
          <dd>
            <span>{view.email}</span>
            {/* A signed-in shopper's email is the account's: the identity step would skip itself. */}
            {!view.signed_in && edit('identity', 'email')}
          </dd>
        </div>
        <div>
          <dt>Delivery address</dt>
          <dd>
            {consignment !== null && <AddressBlock address={consignment.address} countryName={countryName(consignment.address.country_code)} />}
            {edit('delivery', 'delivery address')}
          </dd>
        </div>
        <div>
          <dt>Delivery method</dt>
          <dd>
            <span>{option !== undefined && `${option.label}, ${option.detail}: ${formatMoney(option.amount, view.currency)}`}</span>
            {edit('delivery', 'delivery method')}
          </dd>
        </div>
        <div>
          <dt>Billing address</dt>
          <dd>
            {view.billing === null || view.billing.same_as_delivery || view.billing.address === null ? (
              <span>Same as delivery address</span>
            ) : (
              <AddressBlock address={view.billing.address} countryName={countryName(view.billing.address.country_code)} />
            )}
            {edit('billing', 'billing address')}
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** The reason a redirect payment failed, when the return page sent the shopper back here. */
function declinedNotice(): string | null {
  return new URLSearchParams(window.location.search).get('notice') === 'declined' ? (readDeclined() ?? NOT_COMPLETED) : null;
}

function PaymentForm({ view, prefix }: StepProps): ReactElement {
  const [offer, setOffer] = useState<{ methods: PaymentMethod[]; answer: PaymentMethods } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [tries, setTries] = useState(0);
  const [method, setMethod] = useState<PaymentMethodType | null>(null);
  const [card, setCard] = useState(NO_CARD);
  const [giftCard, setGiftCard] = useState(NO_GIFT_CARD);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(declinedNotice);
  const [busy, setBusy] = useState(false);
  // A second press before React has disabled the button must not start a second attempt.
  const running = useRef(false);

  useEffect(() => {
    let live = true;
    getPaymentMethods(view.id)
      .then(async (answer) => {
        const methods = usableMethods(answer, await walletSupport(answer));
        if (!live) return;
        setOffer({ methods, answer });
        const kept = readDraft().method;
        setMethod(methods.find((m) => m.type === kept)?.type ?? methods[0]?.type ?? null);
      })
      .catch((error: unknown) => {
        if (live) setLoadError(messageOf(error));
      });
    return () => {
      live = false;
    };
  }, [view.id, tries]);

  const choose = (type: PaymentMethodType): void => {
    setMethod(type);
    setErrors({});
    saveDraft({ method: type });
  };

  /**
   * One attempt: a wallet's sheet, or tokenise the details if the method has any, then Place
   * order. A wallet's sheet must open before anything is awaited (it needs the click).
   */
  const attempt = async (chosen: PaymentMethod, answer: PaymentMethods): Promise<WalletOutcome> => {
    if (chosen.type === 'applepay') return payWithApplePay(view.id, prefix, chosen, answer);
    if (chosen.type === 'googlepay') return payWithGooglePay(view.id, prefix, chosen, answer);
    const payment: OrderPayment = { method: chosen.type };
    if (chosen.type === 'scheme' || chosen.type === 'giftcard') {
      try {
        payment.token = await tokenize(answer.tokenize_url, chosen.type === 'scheme' ? cardRequest(card) : giftCardRequest(giftCard));
      } catch (error) {
        const fields = fieldsOf(error);
        setErrors(fields);
        if (Object.keys(fields).length > 0) focusFirstInvalid('payment-methods');
        return { kind: 'failed', message: messageOf(error) };
      }
    }
    return submitOrder(view.id, prefix, payment);
  };

  const place = async (): Promise<void> => {
    const chosen = offer?.methods.find((m) => m.type === method);
    if (running.current || offer === null || chosen === undefined) return;
    const found = method === 'scheme' ? cardErrors(card) : method === 'giftcard' ? giftCardErrors(giftCard) : {};
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setMessage(null);
      focusFirstInvalid('payment-methods');
      return;
    }
    running.current = true;
    setBusy(true);
    setMessage(null);
    rememberDeclined(null);
    const outcome = await attempt(chosen, offer.answer).catch((error: unknown): WalletOutcome => ({ kind: 'failed', message: messageOf(error) }));
    if (outcome.kind === 'left') return; // leaving the page: the button stays busy until it goes
    setMessage(outcome.kind === 'failed' ? outcome.message : null);
    running.current = false;
    setBusy(false);
  };

  const methods = offer?.methods ?? [];
  return (
    <section className="checkout__section" id="payment-methods">
      <Form onSubmit={() => void place()}>
        <fieldset className="choices">
          <legend>
            <h2 className="checkout__title">Payment method</h2>
          </legend>
          {offer === null ? (
            loadError !== null ? (
              <div>
                <FormError message={loadError} />
                <button
                  type="button"
                  className="btn btn--secondary"
                  onClick={() => {
                    setLoadError(null);
                    setTries(tries + 1);
                  }}
                >
                  Try again
                </button>
              </div>
            ) : (
              <p aria-busy="true">Loading...</p>
            )
          ) : methods.length === 0 ? (
            <p>No payment method is available for this order.</p>
          ) : (
            methods.map((m) => (
              <div key={m.type} className="choice-group">
                <label className="choice">
                  <input type="radio" name="payment-method" value={m.type} checked={method === m.type} onChange={() => choose(m.type)} />
                  <span>{m.name}</span>
                </label>
                {method === m.type && m.type === 'scheme' && <CardFields value={card} onChange={setCard} errors={errors} />}
                {method === m.type && m.type === 'giftcard' && <GiftCardFields value={giftCard} onChange={setGiftCard} errors={errors} />}
                {method === m.type && WALLET_HINT[m.type] !== undefined && <p className="choice__detail">{WALLET_HINT[m.type]}</p>}
              </div>
            ))
          )}
        </fieldset>
        <FormError message={message} />
        <button type="submit" className="btn btn--primary checkout__place" disabled={busy || !view.can_continue || method === null}>
          {busy ? 'Loading...' : 'Place order'}
        </button>
      </Form>
    </section>
  );
}
