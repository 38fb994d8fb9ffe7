// POST /marketing-consent: records a consent given for one channel (an email one is confirmed by
// email, with a one-click unsubscribe); the newsletter and the profile's preferences send it.
import { api } from '../../../lib/api';

export type MarketingCategory = 'marketing_email' | 'marketing_post';

export async function postMarketingConsent(email: string, category: MarketingCategory): Promise<void> {
  await api('POST', '/marketing-consent', { email, category, action: 'accept' });
}
