// Signing in, for the pages that need an account (the handler's page, the admin app): the login
// form, the first password from a set-password link, and the session the page works in.
//
// The bearer token lives in memory only: a variable of this module, never localStorage,
// sessionStorage or a cookie (web/README.md). Logging out reloads the page, which forgets the
// token and every record the page had loaded.
import type { ComponentChildren, TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { apiClient, outcome, type Api, type Me } from './api';
import { ErrorAlert } from './error-alert';
import { FieldMessage, fieldRefusal, refusedInput } from './field-messages';
import { useCall } from './use-call';

export type Role = Me['role'];

/** The signed-in account and the API client that carries its token. */
export interface Session {
  me: Me;
  api: Api;
  logout: () => void;
}

let token: string | undefined;
/** Set by the mounted `SignedIn`: what a 401 on a signed-in request does (back to the form). */
let onSessionEnded: (() => void) | undefined;

const authorisedApi = apiClient(() => token, {
  // A 401 with a token: it expired (JWT_TTL) or the account was disabled; sign in again.
  onUnauthorised: () => onSessionEnded?.(),
});
const publicApi = apiClient();

/**
 * The set-password link's fragment, `#konto=<username>&passwort=<token>`: a fragment never
 * reaches a server, a log or a Referer. Read once at start-up and removed from the address bar
 * and the history at once.
 */
function takeSetPasswordLink(): { token: string; username: string } | undefined {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const linkToken = fragment.get('passwort');
  if (!linkToken) return undefined;
  history.replaceState(null, '', location.pathname + location.search);
  return { token: linkToken, username: fragment.get('konto') ?? '' };
}

/** The set-password link of an account, for the page its role uses. */
export function setPasswordLink(account: { username: string; role: Role }, linkToken: string) {
  const page = account.role === 'handler' ? 'mein-eintrag/' : 'admin/';
  const fragment = new URLSearchParams({ konto: account.username, passwort: linkToken });
  return new URL(`/verzeichnis/${page}#${fragment.toString()}`, location.origin).href;
}

type Stage =
  | { step: 'sign-in'; username: string; message?: string }
  | { step: 'set-password'; token: string; username: string }
  | { step: 'signed-in'; me: Me };

/**
 * The page's content for a signed-in account of one of `roles`; before that the login form (or
 * the set-password form when the page was opened through a set-password link).
 */
export function SignedIn(props: {
  roles: readonly Role[];
  /** Where an account of another role is sent, by role. */
  otherPages: Partial<Record<Role, { href: string; name: string }>>;
  children: (session: Session) => ComponentChildren;
}) {
  const [stage, setStage] = useState<Stage>(() => {
    const link = takeSetPasswordLink();
    return link ? { step: 'set-password', ...link } : { step: 'sign-in', username: '' };
  });

  // A set-password link opened in a tab already showing this page changes only the fragment.
  useEffect(() => {
    const onLink = () => {
      const link = takeSetPasswordLink();
      if (link) setStage({ step: 'set-password', ...link });
    };
    addEventListener('hashchange', onLink);
    return () => removeEventListener('hashchange', onLink);
  }, []);

  useEffect(() => {
    onSessionEnded = () => {
      token = undefined;
      setStage({
        step: 'sign-in',
        username: stage.step === 'signed-in' ? stage.me.username : '',
        message: 'Die Anmeldung ist abgelaufen. Bitte erneut anmelden.',
      });
    };
    return () => (onSessionEnded = undefined);
  }, [stage]);

  if (stage.step === 'set-password') {
    return (
      <SetPasswordForm
        linkToken={stage.token}
        onDone={() =>
          setStage({
            step: 'sign-in',
            username: stage.username,
            message: 'Das Passwort ist gesetzt. Bitte melden Sie sich damit an.',
          })
        }
      />
    );
  }
  if (stage.step === 'sign-in') {
    return (
      <SignInForm
        username={stage.username}
        message={stage.message}
        onSignedIn={(me) => setStage({ step: 'signed-in', me })}
      />
    );
  }
  const { me } = stage;
  if (!props.roles.includes(me.role)) {
    const other = props.otherPages[me.role];
    return (
      <section aria-labelledby="falsche-seite">
        <h2 id="falsche-seite">Diese Seite ist nicht für Ihr Konto</h2>
        {other && (
          <p>
            Ihr Konto verwendet die Seite <a href={other.href}>{other.name}</a>.
          </p>
        )}
        <button type="button" class="secondary" onClick={logout}>
          Abmelden
        </button>
      </section>
    );
  }
  return <>{props.children({ me, api: authorisedApi, logout })}</>;
}

/** Forgets the token and everything loaded: the page starts again from its HTML. */
function logout() {
  token = undefined;
  location.replace(location.pathname);
}

function SignInForm(props: {
  username: string;
  message: string | undefined;
  onSignedIn: (me: Me) => void;
}) {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const passwordInput = useRef<HTMLInputElement>(null);
  const usernameInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    (props.username ? passwordInput : usernameInput).current?.focus();
  }, []);

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(undefined);
    const login = await outcome(
      publicApi.POST('/api/auth/login', {
        body: { username: text(form, 'username'), password: text(form, 'password') },
      }),
    );
    if ('message' in login) {
      setBusy(false);
      setError(login.message);
      // A refused login (not a lost connection): the password is the likely mistake.
      if (!login.offline) passwordInput.current?.select();
      return;
    }
    token = login.data.token;
    const me = await outcome(authorisedApi.GET('/api/auth/me'));
    setBusy(false);
    if ('data' in me) {
      props.onSignedIn(me.data.data);
    } else {
      token = undefined;
      setError(me.message);
    }
  }

  return (
    <form class="panel narrow" onSubmit={(event) => void submit(event)} aria-labelledby="anmelden">
      <h2 id="anmelden">Anmelden</h2>
      {props.message && (
        <p class="notice" role="status">
          {props.message}
        </p>
      )}
      <label for="benutzername">Benutzername</label>
      <input
        id="benutzername"
        name="username"
        ref={usernameInput}
        autoComplete="username"
        autoCapitalize="none"
        spellcheck={false}
        required
        defaultValue={props.username}
      />
      <label for="passwort">Passwort</label>
      <input
        id="passwort"
        name="password"
        type="password"
        ref={passwordInput}
        autoComplete="current-password"
        required
      />
      <ErrorAlert text={error} />
      <button type="submit" class="wide" disabled={busy}>
        {busy ? 'Anmeldung läuft …' : 'Anmelden'}
      </button>
    </form>
  );
}

/** A text field of a submitted form. */
function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** Passwords the API takes: 12–128 characters (the contract's `Password`). */
const PASSWORD_MIN = 12;

function SetPasswordForm(props: { linkToken: string; onDone: () => void }) {
  const { busy, error, setError, run } = useCall();
  const refusal = fieldRefusal(error);

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = text(form, 'password');
    if (password.length < PASSWORD_MIN) {
      setError(`Das Passwort braucht mindestens ${PASSWORD_MIN} Zeichen.`);
      return;
    }
    if (password !== text(form, 'repeat')) {
      setError('Die beiden Eingaben stimmen nicht überein.');
      return;
    }
    const saved = await run(
      publicApi.POST('/api/auth/set-password', { body: { token: props.linkToken, password } }),
    );
    if (saved) props.onDone();
  }

  return (
    <form
      class="panel narrow"
      onSubmit={(event) => void submit(event)}
      aria-labelledby="passwort-setzen"
    >
      <h2 id="passwort-setzen">Passwort festlegen</h2>
      <p class="hint" id="passwort-hinweis">
        Mindestens {PASSWORD_MIN} Zeichen, gern ein Satz. Der Link gilt einmal und 72 Stunden.
      </p>
      <label for="neues-passwort">Neues Passwort</label>
      <input
        id="neues-passwort"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        {...refusedInput(refusal, 'password', 'neues-passwort', 'passwort-hinweis')}
      />
      <FieldMessage refusal={refusal} field="password" inputId="neues-passwort" />
      <label for="passwort-wiederholen">Passwort wiederholen</label>
      <input
        id="passwort-wiederholen"
        name="repeat"
        type="password"
        autoComplete="new-password"
        required
      />
      <ErrorAlert text={refusal ? undefined : error} />
      <button type="submit" class="wide" disabled={busy}>
        {busy ? 'Wird gespeichert …' : 'Passwort speichern'}
      </button>
    </form>
  );
}

/**
 * „Passwort ändern“ for the signed-in account: the current password and the new one twice. The
 * API ends every earlier token of the account and answers a new one for this page, kept in
 * memory as the first was. A wrong current password is the API's 401, shown here; the session
 * goes on (unless /api/auth/me says it has ended meanwhile: then back to the login form).
 */
export function ChangePasswordForm(props: { onDone: () => void; onCancel: () => void }) {
  const { busy, error, setError, run } = useCall();
  const refusal = fieldRefusal(error);
  const currentInput = useRef<HTMLInputElement>(null);

  useEffect(() => currentInput.current?.focus(), []);

  async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const newPassword = text(form, 'newPassword');
    if (newPassword.length < PASSWORD_MIN) {
      setError(`Das neue Passwort braucht mindestens ${PASSWORD_MIN} Zeichen.`);
      return;
    }
    if (newPassword !== text(form, 'repeat')) {
      setError('Die beiden Eingaben des neuen Passworts stimmen nicht überein.');
      return;
    }
    const changed = await run(
      authorisedApi.PUT('/api/auth/password', {
        body: { currentPassword: text(form, 'currentPassword'), newPassword },
      }),
    );
    if (changed) {
      token = changed.token;
      props.onDone();
      return;
    }
    currentInput.current?.select();
    // A 401 may also mean the token has ended: this call's 401 signs out if so.
    await authorisedApi.GET('/api/auth/me').catch(() => undefined);
  }

  return (
    <form
      class="panel narrow"
      onSubmit={(event) => void submit(event)}
      aria-labelledby="passwort-aendern"
    >
      <h2 id="passwort-aendern">Passwort ändern</h2>
      <p class="hint" id="passwort-aendern-hinweis">
        Mindestens {PASSWORD_MIN} Zeichen, gern ein Satz. Andere Geräte, die mit diesem Konto
        angemeldet sind, werden abgemeldet.
      </p>
      <label for="aktuelles-passwort">Aktuelles Passwort</label>
      <input
        id="aktuelles-passwort"
        name="currentPassword"
        type="password"
        ref={currentInput}
        autoComplete="current-password"
        required
      />
      <label for="geaendertes-passwort">Neues Passwort</label>
      <input
        id="geaendertes-passwort"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        required
        {...refusedInput(
          refusal,
          'newPassword',
          'geaendertes-passwort',
          'passwort-aendern-hinweis',
        )}
      />
      <FieldMessage refusal={refusal} field="newPassword" inputId="geaendertes-passwort" />
      <label for="geaendertes-passwort-wiederholen">Neues Passwort wiederholen</label>
      <input
        id="geaendertes-passwort-wiederholen"
        name="repeat"
        type="password"
        autoComplete="new-password"
        required
      />
      <ErrorAlert text={refusal ? undefined : error} />
      <div class="button-row">
        <button type="submit" disabled={busy}>
          {busy ? 'Wird gespeichert …' : 'Passwort ändern'}
        </button>
        <button type="button" class="secondary" onClick={props.onCancel}>
          Abbrechen
        </button>
      </div>
    </form>
  );
}
