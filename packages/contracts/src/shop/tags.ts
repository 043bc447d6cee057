import { apiTags } from '../common.js';

/** The shop's tags, each declared once; operations take theirs with `shopTag(name)`. */
export const { list: shopTagList, tag: shopTag } = apiTags({
  Products: 'Catalogue of active products',
  Categories: 'Active categories',
  Orders: 'Orders with stock and status',
  Customers: 'Accounts, login and profile',
  Reviews: 'Product reviews',
  Newsletter: 'Newsletter subscription',
  Statistics: 'Overall counts',
  Webhooks: 'Signed webhooks and the event feed',
  'Back office': 'Staff sign-in, staff accounts and API keys (`/admin/…`)',
});
