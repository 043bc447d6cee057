// Signing in to the admin app: web-kit's session (login form, set-password link, token in memory
// only, a 401 brings the form back, "Change password", the account bar) with the shop's staff
// calls and English texts. Staff sign in with their e-mail address.
import { createSession, type Session as KitSession } from '@dogshop/web-kit';
import { apiClient, outcome, type Api, type StaffRole, type StaffUser } from './api';
import { fieldRefusal } from './field-messages';

/** The signed-in staff member, with the e-mail as the session's user name. */
export type Me = StaffUser & { username: string };

export type Session = KitSession<Me, Api>;

/** The operation whose 401 may mean a wrong current password rather than an ended session. */
const PASSWORD_CHECKED = '/admin/auth/password';

/** Passwords the API takes: 12–128 characters (the contract's staff password rule). */
const PASSWORD_MIN = 12;

export const ROLE_NAMES: Record<StaffRole, string> = {
  admin: 'admin',
  staff: 'staff',
  viewer: 'read only',
};

const session = createSession<Me, Api>({
  connect: ({ token, unauthorised }) => {
    const publicApi = apiClient();
    const api = apiClient({
      token,
      // A 401 with a token: it expired or the account was disabled; sign in again.
      onUnauthorised: unauthorised,
      passwordChecked: [PASSWORD_CHECKED],
    });
    return {
      api,
      calls: {
        login: ({ username, password }) =>
          outcome(publicApi.POST('/admin/auth/login', { body: { email: username, password } })),
        me: async () => {
          const me = await outcome(api.GET('/admin/auth/me'));
          return 'data' in me
            ? { ...me, data: { ...me.data.data, username: me.data.data.email } }
            : me;
        },
        setPassword: (body) => outcome(publicApi.POST('/admin/auth/set-password', { body })),
        changePassword: ({ currentPassword, newPassword }) =>
          outcome(
            api.PUT(PASSWORD_CHECKED, {
              body: { current_password: currentPassword, new_password: newPassword },
            }),
          ),
      },
    };
  },
  texts: {
    signIn: {
      heading: 'Sign in',
      username: 'E-mail',
      password: 'Password',
      submit: 'Sign in',
      busy: 'Signing in …',
    },
    expired: 'Your session has ended. Please sign in again.',
    passwordSet: 'Your password is set. Sign in with it now.',
    setPassword: {
      heading: 'Choose your password',
      hint: (minimum) =>
        `At least ${minimum} characters; a sentence works well. The link works once, for 72 hours.`,
      password: 'New password',
      repeat: 'Repeat the password',
      submit: 'Save password',
      busy: 'Saving …',
    },
    changePassword: {
      open: 'Change password',
      heading: 'Change password',
      hint: (minimum) =>
        `At least ${minimum} characters; a sentence works well. Other devices signed in to this account are signed out.`,
      current: 'Current password',
      password: 'New password',
      repeat: 'Repeat the new password',
      submit: 'Change password',
      busy: 'Saving …',
      cancel: 'Cancel',
      done: 'Your password is changed. Other devices are signed out.',
    },
    tooShort: (minimum, changing) =>
      `The ${changing ? 'new ' : ''}password needs at least ${minimum} characters.`,
    mismatch: (changing) =>
      changing ? 'The two entries of the new password differ.' : 'The two entries differ.',
    signedInAs: (username, role) => (
      <>
        Signed in as {username} ({role})
      </>
    ),
    logout: 'Sign out',
    wrongPage: {
      heading: 'This page is not for your account',
      uses: (link) => <>Your account uses {link}.</>,
    },
  },
  linkKeys: { account: 'email', token: 'token' },
  roleName: (role) => ROLE_NAMES[role],
  passwordMinimum: PASSWORD_MIN,
  fieldRefusal,
});

export const { SignedIn, AccountBar } = session;

/** A new staff account's set-password link (the token in the fragment: never sent to a server). */
export const setPasswordLink = (email: string, linkToken: string) =>
  session.setPasswordLink('/app/', email, linkToken);
