// The path of one saved address: its id, escaped for the URL.
export const addressPath = (id: string): string => `/customer/addresses/${encodeURIComponent(id)}`;
