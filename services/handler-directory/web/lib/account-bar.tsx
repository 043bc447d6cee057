import { ROLE_NAMES } from './pages';
import type { Session } from './session';

/** Who is signed in, and the way out (which forgets everything the page loaded). */
export function AccountBar({ session }: { session: Session }) {
  return (
    <div class="account-bar">
      <p>
        Angemeldet als <strong>{session.me.username}</strong> ({ROLE_NAMES[session.me.role]})
      </p>
      <button type="button" class="secondary" onClick={session.logout}>
        Abmelden
      </button>
    </div>
  );
}
