import { useRef, useState } from 'preact/hooks';
import { ROLE_NAMES } from './pages';
import { ChangePasswordForm, type Session } from './session';

/**
 * Who is signed in, „Passwort ändern“ (the form below the bar), and the way out (which forgets
 * everything the page loaded).
 */
export function AccountBar({ session }: { session: Session }) {
  const [changing, setChanging] = useState(false);
  const [changed, setChanged] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);

  const close = (done: boolean) => {
    setChanging(false);
    setChanged(done);
    // Back where the form was opened from (it is gone now).
    requestAnimationFrame(() => opener.current?.focus());
  };

  return (
    <>
      <div class="account-bar">
        <p>
          Angemeldet als <strong>{session.me.username}</strong> ({ROLE_NAMES[session.me.role]})
        </p>
        <div class="button-row">
          <button
            type="button"
            class="secondary"
            ref={opener}
            aria-expanded={changing}
            onClick={() => {
              setChanged(false);
              setChanging(!changing);
            }}
          >
            Passwort ändern
          </button>
          <button type="button" class="secondary" onClick={session.logout}>
            Abmelden
          </button>
        </div>
      </div>
      <p class={changed ? 'notice' : undefined} role="status">
        {changed ? 'Das Passwort ist geändert. Andere Geräte sind abgemeldet.' : ''}
      </p>
      {changing && <ChangePasswordForm onDone={() => close(true)} onCancel={() => close(false)} />}
    </>
  );
}
