// Signing in, for the pages that need an account (the handler's page, the admin app): web-kit's
// session (login form, set-password link, token in memory only, a 401 brings the form back,
// „Passwort ändern“, the account bar) with the directory's clients and German texts.
import { createSession, type Session as KitSession } from '@dogshop/web-kit';
import { apiClient, outcome, type Api, type Me } from './api';
import { fieldRefusal } from './field-messages';
import { ROLE_NAMES } from './pages';

export type Role = Me['role'];

/** The signed-in account and the API client that carries its token. */
export type Session = KitSession<Me, Api>;

/** The operation whose 401 may mean a wrong password rather than an ended session. */
const PASSWORD_CHECKED = '/api/auth/password';

/** Passwords the API takes: 12–128 characters (the contract's `Password`). */
const PASSWORD_MIN = 12;

const session = createSession<Me, Api>({
  connect: ({ token, unauthorised }) => {
    const publicApi = apiClient();
    const api = apiClient({
      token,
      // A 401 with a token: it expired (JWT_TTL) or the account was disabled; sign in again.
      onUnauthorised: unauthorised,
      passwordChecked: [PASSWORD_CHECKED],
    });
    return {
      api,
      calls: {
        login: (body) => outcome(publicApi.POST('/api/auth/login', { body })),
        me: async () => {
          const me = await outcome(api.GET('/api/auth/me'));
          return 'data' in me ? { ...me, data: me.data.data } : me;
        },
        setPassword: (body) => outcome(publicApi.POST('/api/auth/set-password', { body })),
        changePassword: (body) => outcome(api.PUT(PASSWORD_CHECKED, { body })),
      },
    };
  },
  texts: {
    signIn: {
      heading: 'Anmelden',
      username: 'Benutzername',
      password: 'Passwort',
      submit: 'Anmelden',
      busy: 'Anmeldung läuft …',
    },
    expired: 'Die Anmeldung ist abgelaufen. Bitte erneut anmelden.',
    passwordSet: 'Das Passwort ist gesetzt. Bitte melden Sie sich damit an.',
    setPassword: {
      heading: 'Passwort festlegen',
      hint: (minimum) =>
        `Mindestens ${minimum} Zeichen, gern ein Satz. Der Link gilt einmal und 72 Stunden.`,
      password: 'Neues Passwort',
      repeat: 'Passwort wiederholen',
      submit: 'Passwort speichern',
      busy: 'Wird gespeichert …',
    },
    changePassword: {
      open: 'Passwort ändern',
      heading: 'Passwort ändern',
      hint: (minimum) =>
        `Mindestens ${minimum} Zeichen, gern ein Satz. Andere Geräte, die mit diesem Konto angemeldet sind, werden abgemeldet.`,
      current: 'Aktuelles Passwort',
      password: 'Neues Passwort',
      repeat: 'Neues Passwort wiederholen',
      submit: 'Passwort ändern',
      busy: 'Wird gespeichert …',
      cancel: 'Abbrechen',
      done: 'Das Passwort ist geändert. Andere Geräte sind abgemeldet.',
    },
    tooShort: (minimum, changing) =>
      `Das ${changing ? 'neue ' : ''}Passwort braucht mindestens ${minimum} Zeichen.`,
    mismatch: (changing) =>
      changing
        ? 'Die beiden Eingaben des neuen Passworts stimmen nicht überein.'
        : 'Die beiden Eingaben stimmen nicht überein.',
    signedInAs: (username, role) => (
      <>
        Angemeldet als {username} ({role})
      </>
    ),
    logout: 'Abmelden',
    wrongPage: {
      heading: 'Diese Seite ist nicht für Ihr Konto',
      uses: (link) => <>Ihr Konto verwendet die Seite {link}.</>,
    },
  },
  linkKeys: { account: 'konto', token: 'passwort' },
  roleName: (role) => ROLE_NAMES[role],
  passwordMinimum: PASSWORD_MIN,
  fieldRefusal,
});

export const { SignedIn, AccountBar } = session;

/**
 * The set-password link of an account (`…/mein-eintrag/#konto=<name>&passwort=<token>` for a
 * handler account, `…/admin/#…` for the others): the token in the fragment, which never reaches
 * a server, a log or a Referer.
 */
export function setPasswordLink(account: { username: string; role: Role }, linkToken: string) {
  const page = account.role === 'handler' ? 'mein-eintrag/' : 'admin/';
  return session.setPasswordLink(`/verzeichnis/${page}`, account.username, linkToken);
}
