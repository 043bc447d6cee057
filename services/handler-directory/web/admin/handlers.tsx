// (To be built: issue 22.)
import type { Session } from '../lib/session';

export function HandlerList({ session }: { session: Session }) {
  return <p>{session.me.username}</p>;
}
