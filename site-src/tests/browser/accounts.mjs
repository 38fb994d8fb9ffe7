// Account helpers the browser suites share: `storefront dev`'s mailbox (/dev/mail) and a
// registration confirmed through the link it emails, as a shopper does it.
import { strict as assert } from 'node:assert';
import { hydrated } from './chromium.mjs';

/**
 * Opens the newest email to `email` whose subject matches `subject` in the dev mailbox, waiting
 * for the shop's sender to deliver it: the page lists delivered mail, so it is reloaded until it
 * shows.
 */
export async function openMail(page, siteUrl, email, subject, timeout = 15_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    await page.goto(`${siteUrl}/dev/mail?to=${encodeURIComponent(email)}`);
    const message = page.getByRole('link', { name: subject }).first();
    if ((await message.count()) > 0) {
      await message.click();
      await page.getByRole('heading', { name: subject }).waitFor();
      return;
    }
    assert.ok(Date.now() < deadline, `no email "${subject}" to ${email} in the mailbox`);
    await page.waitForTimeout(250);
  }
}

/**
 * Registers on /create-account (in the market of `prefix`), then opens the confirmation email's
 * link, which creates the account and signs in: ends on my-account, greeted by `first`.
 */
export async function registerAndConfirm(page, siteUrl, { email, password, first = 'Ada', last = 'Lovelace', prefix = '' }) {
  await page.goto(`${siteUrl}${prefix}/create-account`);
  await hydrated(page);
  const form = page.locator('main form');
  await form.getByLabel('Title *').selectOption('Ms');
  await form.getByLabel('First name *').fill(first);
  await form.getByLabel('Last name *').fill(last);
  await form.getByLabel('Email address *').fill(email);
  await form.getByLabel('Password *').fill(password);
  await form.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  await openMail(page, siteUrl, email, /^Confirm your .* account$/);
  // The email's own button, in its HTML part, as a mail client shows it.
  await page.frameLocator('iframe').getByRole('link', { name: 'Confirm my account' }).click();
  await page.waitForURL(/\/my-account$/, { waitUntil: 'domcontentloaded' });
  await page.getByText(`Hello ${first}`).waitFor();
}
