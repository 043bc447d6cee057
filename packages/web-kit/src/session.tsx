// Signing in, for the pages that need an account: the login form, the first password from a
// set-password link, „change password“, who is signed in and the way out, and the session the
// page works in. Every text comes from the service (`SessionTexts`), in its language.
//
// The bearer token lives in memory only: a variable of the session (one per page), never
// localStorage, sessionStorage or a cookie, so no other tab, script or later visitor of the
// device can read it, and there is no cookie to forge requests with. Logging out reloads the
// page, which forgets the token and every record the page had loaded. A 401 on a request that
// carried the token (it expired, or the account was disabled) brings the login form back.
import type { ComponentChildren, TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Outcome } from './api';
import { ErrorAlert } from './error-alert';
import {
  FieldMessage,
  refusedInput,
  type FieldRefusal,
  type FieldRefusalOf,
} from './field-message';
import { useCall } from './use-call';

/** What a page needs of the signed-in account. */
export interface SignedInAccount {
  username: string;
  role: string;
}

/** The service's authentication operations, made with its own clients (see `createSession`). */
export interface AuthCalls<Me> {
  /** The public login: its token. */
  login: (body: { username: string; password: string }) => Promise<Outcome<{ token: string }>>;
  /** Who the token belongs to (sent with the token). */
  me: () => Promise<Outcome<Me>>;
  /** A set-password link's token and the new password (public). */
  setPassword: (body: { token: string; password: string }) => Promise<Outcome<unknown>>;
  /** The signed-in account's new password: the new token (the others end). */
  changePassword: (body: {
    currentPassword: string;
    newPassword: string;
  }) => Promise<Outcome<{ token: string }>>;
}

/** Every text of the session's forms and bar, in the service's language. */
export interface SessionTexts {
  signIn: { heading: string; username: string; password: string; submit: string; busy: string };
  /** Shown above the login form after a 401 on a signed-in request. */
  expired: string;
  /** Shown above the login form once the set-password link's password is saved. */
  passwordSet: string;
  setPassword: {
    heading: string;
    hint: (minimum: number) => string;
    password: string;
    repeat: string;
    submit: string;
    busy: string;
  };
  changePassword: {
    open: string;
    heading: string;
    hint: (minimum: number) => string;
    current: string;
    password: string;
    repeat: string;
    submit: string;
    busy: string;
    cancel: string;
    /** Shown below the account bar once the password is changed. */
    done: string;
  };
  /** A new password shorter than the minimum (`changing`: the „change password“ form). */
  tooShort: (minimum: number, changing: boolean) => string;
  /** The two entries of the new password differ. */
  mismatch: (changing: boolean) => string;
  /** `Signed in as <strong>name</strong> (role)`. */
  signedInAs: (username: ComponentChildren, role: string) => ComponentChildren;
  logout: string;
  wrongPage: { heading: string; uses: (link: ComponentChildren) => ComponentChildren };
}

export interface SessionConfig<Me extends SignedInAccount, Api> {
  /**
   * Makes the service's clients with the session's token: `token()` for the Authorization header
   * of the authorised client, `unauthorised()` for its 401 (see `createApiClient`).
   */
  connect: (access: { token: () => string | undefined; unauthorised: () => void }) => {
    api: Api;
    calls: AuthCalls<Me>;
  };
  texts: SessionTexts;
  /** The set-password link's fragment keys: `#<account>=<username>&<token>=<token>`. */
  linkKeys: { account: string; token: string };
  /** The role's name as the bar shows it. */
  roleName: (role: Me['role']) => string;
  /** The API's shortest password (checked here first, so the form says it at once). */
  passwordMinimum: number;
  /** A refused field's sentence (the service's), for the password forms. */
  fieldRefusal: FieldRefusalOf;
}

/** The signed-in account and the API client that carries its token. */
export interface Session<Me, Api> {
  me: Me;
  api: Api;
  logout: () => void;
}

/** A text field of a submitted form. */
function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** Forgets the token and everything loaded: the page starts again from its HTML. */
function logout() {
  location.replace(location.pathname);
}

/**
 * The session of one page: its token (memory only), its forms and bar, all speaking the texts of
 * `config`. Call once at the page's start (a module's top level), not in a component.
 */
export function createSession<Me extends SignedInAccount, Api>(config: SessionConfig<Me, Api>) {
  const { texts, linkKeys, passwordMinimum: minimum, fieldRefusal } = config;
  let token: string | undefined;
  /** Set by the mounted `SignedIn`: what a 401 on a signed-in request does (back to the form). */
  let onSessionEnded: (() => void) | undefined;
  const { api, calls } = config.connect({
    token: () => token,
    unauthorised: () => onSessionEnded?.(),
  });
  const endSession = () => {
    token = undefined;
    logout();
  };

  /**
   * The set-password link's fragment: a fragment never reaches a server, a log or a Referer.
   * Read at start-up and removed from the address bar and the history at once.
   */
  function takeSetPasswordLink(): { token: string; username: string } | undefined {
    const fragment = new URLSearchParams(location.hash.slice(1));
    const linkToken = fragment.get(linkKeys.token);
    if (!linkToken) return undefined;
    history.replaceState(null, '', location.pathname + location.search);
    return { token: linkToken, username: fragment.get(linkKeys.account) ?? '' };
  }

  /** The set-password link of `username` to the page at `path` (its role's page). */
  function setPasswordLink(path: string, username: string, linkToken: string): string {
    const fragment = new URLSearchParams({
      [linkKeys.account]: username,
      [linkKeys.token]: linkToken,
    });
    return new URL(`${path}#${fragment.toString()}`, location.origin).href;
  }

  type Stage =
    | { step: 'sign-in'; username: string; message?: string }
    | { step: 'set-password'; token: string; username: string }
    | { step: 'signed-in'; me: Me };

  /**
   * The page's content for a signed-in account of one of `roles`; before that the login form
   * (or the set-password form when the page was opened through a set-password link).
   */
  function SignedIn(props: {
    roles: readonly Me['role'][];
    /** Where an account of another role is sent, by role. */
    otherPages: Partial<Record<Me['role'], { href: string; name: string }>>;
    children: (session: Session<Me, Api>) => ComponentChildren;
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
          message: texts.expired,
        });
      };
      return () => (onSessionEnded = undefined);
    }, [stage]);

    if (stage.step === 'set-password') {
      return (
        <SetPasswordForm
          linkToken={stage.token}
          onDone={() =>
            setStage({ step: 'sign-in', username: stage.username, message: texts.passwordSet })
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
      const other = props.otherPages[me.role as Me['role']];
      return (
        <section aria-labelledby="wrong-page">
          <h2 id="wrong-page">{texts.wrongPage.heading}</h2>
          {other && <p>{texts.wrongPage.uses(<a href={other.href}>{other.name}</a>)}</p>}
          <button type="button" class="secondary" onClick={endSession}>
            {texts.logout}
          </button>
        </section>
      );
    }
    return <>{props.children({ me, api, logout: endSession })}</>;
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
      const login = await calls.login({
        username: text(form, 'username'),
        password: text(form, 'password'),
      });
      if ('message' in login) {
        setBusy(false);
        setError(login.message);
        // A refused login (not a lost connection): the password is the likely mistake.
        if (!login.offline) passwordInput.current?.select();
        return;
      }
      token = login.data.token;
      const me = await calls.me();
      setBusy(false);
      if ('data' in me) {
        props.onSignedIn(me.data);
      } else {
        token = undefined;
        setError(me.message);
      }
    }

    const t = texts.signIn;
    return (
      <form class="panel narrow" onSubmit={(event) => void submit(event)} aria-labelledby="sign-in">
        <h2 id="sign-in">{t.heading}</h2>
        {props.message && (
          <p class="notice" role="status">
            {props.message}
          </p>
        )}
        <label for="sign-in-username">{t.username}</label>
        <input
          id="sign-in-username"
          name="username"
          ref={usernameInput}
          autoComplete="username"
          autoCapitalize="none"
          spellcheck={false}
          required
          defaultValue={props.username}
        />
        <label for="sign-in-password">{t.password}</label>
        <input
          id="sign-in-password"
          name="password"
          type="password"
          ref={passwordInput}
          autoComplete="current-password"
          required
        />
        <ErrorAlert text={error} />
        <button type="submit" class="wide" disabled={busy}>
          {busy ? t.busy : t.submit}
        </button>
      </form>
    );
  }

  /**
   * The new password as both forms check it before sending: long enough, and typed the same
   * twice. The refusal's text, or undefined when it may be sent.
   */
  function newPasswordProblem(form: FormData, field: string, changing: boolean) {
    const password = text(form, field);
    if (password.length < minimum) return texts.tooShort(minimum, changing);
    if (password !== text(form, 'repeat')) return texts.mismatch(changing);
    return undefined;
  }

  /** The rule's hint, the new password (the API's refusal of it beside it) and its repetition. */
  function NewPasswordFields(props: {
    form: 'set-password' | 'change-password';
    field: string;
    refusal: FieldRefusal | undefined;
    labels: { hint: (minimum: number) => string; password: string; repeat: string };
  }) {
    const { form, field, refusal, labels } = props;
    return (
      <>
        <p class="hint" id={`${form}-hint`}>
          {labels.hint(minimum)}
        </p>
        <label for={`${form}-new`}>{labels.password}</label>
        <input
          id={`${form}-new`}
          name={field}
          type="password"
          autoComplete="new-password"
          required
          {...refusedInput(refusal, field, `${form}-new`, `${form}-hint`)}
        />
        <FieldMessage refusal={refusal} field={field} inputId={`${form}-new`} />
        <label for={`${form}-repeat`}>{labels.repeat}</label>
        <input
          id={`${form}-repeat`}
          name="repeat"
          type="password"
          autoComplete="new-password"
          required
        />
      </>
    );
  }

  function SetPasswordForm(props: { linkToken: string; onDone: () => void }) {
    const { busy, error, setError, run } = useCall();
    const refusal = fieldRefusal(error);
    const t = texts.setPassword;

    async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
      event.preventDefault();
      const form = new FormData(event.currentTarget);
      const problem = newPasswordProblem(form, 'password', false);
      if (problem) {
        setError(problem);
        return;
      }
      const password = text(form, 'password');
      const saved = await run(calls.setPassword({ token: props.linkToken, password }));
      if (saved) props.onDone();
    }

    return (
      <form
        class="panel narrow"
        onSubmit={(event) => void submit(event)}
        aria-labelledby="set-password"
      >
        <h2 id="set-password">{t.heading}</h2>
        <NewPasswordFields form="set-password" field="password" refusal={refusal} labels={t} />
        <ErrorAlert text={refusal ? undefined : error} />
        <button type="submit" class="wide" disabled={busy}>
          {busy ? t.busy : t.submit}
        </button>
      </form>
    );
  }

  /**
   * „Change password“ for the signed-in account: the current password and the new one twice. The
   * API ends every earlier token of the account and answers a new one for this page, kept in
   * memory as the first was. A wrong current password is the API's 401, shown here; the session
   * goes on (unless `me` says it has ended meanwhile: then back to the login form).
   */
  function ChangePasswordForm(props: { onDone: () => void; onCancel: () => void }) {
    const { busy, error, setError, run } = useCall();
    const refusal = fieldRefusal(error);
    const currentInput = useRef<HTMLInputElement>(null);
    const t = texts.changePassword;

    useEffect(() => currentInput.current?.focus(), []);

    async function submit(event: TargetedSubmitEvent<HTMLFormElement>) {
      event.preventDefault();
      const form = new FormData(event.currentTarget);
      const problem = newPasswordProblem(form, 'newPassword', true);
      if (problem) {
        setError(problem);
        return;
      }
      const newPassword = text(form, 'newPassword');
      const changed = await run(
        calls.changePassword({ currentPassword: text(form, 'currentPassword'), newPassword }),
      );
      if (changed) {
        token = changed.token;
        props.onDone();
        return;
      }
      currentInput.current?.select();
      // A 401 may also mean the token has ended: this call's 401 signs out if so.
      await calls.me();
    }

    return (
      <form
        class="panel narrow"
        onSubmit={(event) => void submit(event)}
        aria-labelledby="change-password"
      >
        <h2 id="change-password">{t.heading}</h2>
        <label for="change-password-current">{t.current}</label>
        <input
          id="change-password-current"
          name="currentPassword"
          type="password"
          ref={currentInput}
          autoComplete="current-password"
          required
        />
        <NewPasswordFields
          form="change-password"
          field="newPassword"
          refusal={refusal}
          labels={t}
        />
        <ErrorAlert text={refusal ? undefined : error} />
        <div class="button-row">
          <button type="submit" disabled={busy}>
            {busy ? t.busy : t.submit}
          </button>
          <button type="button" class="secondary" onClick={props.onCancel}>
            {t.cancel}
          </button>
        </div>
      </form>
    );
  }

  /**
   * Who is signed in, „change password“ (the form below the bar), and the way out (which forgets
   * everything the page loaded).
   */
  function AccountBar({ session }: { session: Session<Me, Api> }) {
    const [changing, setChanging] = useState(false);
    const [changed, setChanged] = useState(false);
    const opener = useRef<HTMLButtonElement>(null);
    const t = texts.changePassword;

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
            {texts.signedInAs(
              <strong>{session.me.username}</strong>,
              config.roleName(session.me.role),
            )}
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
              {t.open}
            </button>
            <button type="button" class="secondary" onClick={session.logout}>
              {texts.logout}
            </button>
          </div>
        </div>
        <p class={changed ? 'notice' : undefined} role="status">
          {changed ? t.done : ''}
        </p>
        {changing && (
          <ChangePasswordForm onDone={() => close(true)} onCancel={() => close(false)} />
        )}
      </>
    );
  }

  return { SignedIn, AccountBar, ChangePasswordForm, setPasswordLink };
}
