// A new account's set-password link, or a reset's new one, shown once: the token is the API's
// answer to that one call, and the page keeps it in memory only.
import { formatDateTime } from '../lib/format';
import { ShownSecret } from './shown-secret';

export interface IssuedLink {
  name: string;
  email: string;
  link: string;
  expiresAt: string;
  reason: 'created' | 'reset';
}

export function SetPasswordLink(props: { issued: IssuedLink; onDone: () => void }) {
  const { name, email, link, expiresAt, reason } = props.issued;
  return (
    <ShownSecret
      id="set-password-link"
      heading={
        reason === 'created' ? `Account created: the link for ${name}` : `New link for ${name}`
      }
      label="Set-password link"
      value={link}
      onDone={props.onDone}
    >
      <p>
        This link is shown only now. Give it to {name} ({email}): with it they choose their
        password. It works once, until {formatDateTime(expiresAt)}
        {reason === 'reset'
          ? '. Earlier links no longer work; the current password works until a new one is set.'
          : '.'}
      </p>
    </ShownSecret>
  );
}
