import { apiTags } from '../common.js';

/** The directory's tags, each declared once; operations take theirs with `directoryTag(name)`. */
export const { list: directoryTagList, tag: directoryTag } = apiTags({
  Public: 'Available handlers, no login',
  Auth: 'Login, the signed-in account and its password',
  Accounts: 'Manage accounts (admin only)',
  Handlers: 'Manage handlers (viewer: read only)',
  Export: 'All handlers as JSON, CSV or XLSX',
});
