// The admin app's URLs, for links between its sections.

/** The app's first page, the orders; every other page below it. */
export const APP_BASE = '/app/';

export const orderPath = (id: number) => `/app/orders/${id}`;
export const productPath = (id: number) => `/app/products/${id}`;
export const customerPath = (id: number) => `/app/customers/${id}`;
export const webhookPath = (id: number) => `/app/settings/webhooks/${id}`;
