// The product actions' way of showing a failed call: a notification, whose module loads only when
// there is one to show. Shared by the add-to-bag actions and the notify-me form.
export async function showError(error: unknown): Promise<void> {
  (await import('./shop-actions')).showError(error);
}
