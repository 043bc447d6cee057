// A handler's own entry: availability with an end, the position from the phone, and what the
// public sees. (To be built: issue 22.)
import { AccountBar } from '../lib/account-bar';
import type { Session } from '../lib/session';

export function OwnEntry({ session }: { session: Session }) {
  return <AccountBar session={session} />;
}
