// The set-password link of a new account or a reset password, shown once (web-kit's ShownOnce).
import { ShownOnce } from '@dogshop/web-kit';
import { formatDateTime } from '../lib/format';

export interface IssuedLink {
  username: string;
  link: string;
  expiresAt: string;
  reason: 'created' | 'reset';
}

const TEXTS = {
  label: 'Link zum Setzen des Passworts',
  copy: 'Link kopieren',
  copied: 'Link kopiert.',
  copyFailed: 'Kopieren nicht möglich: bitte den Link im Feld markieren und kopieren.',
  done: 'Fertig',
};

export function OneTimeLink(props: { issued: IssuedLink; onDone: () => void }) {
  const { username, link, expiresAt, reason } = props.issued;
  return (
    <ShownOnce
      id="einmal-link"
      heading={
        <>
          {reason === 'created' ? 'Konto angelegt: ' : 'Passwort zurückgesetzt: '}
          Link für {username}
        </>
      }
      value={link}
      texts={TEXTS}
      onDone={props.onDone}
    >
      <p>
        Dieser Link wird nur jetzt angezeigt. Bitte der Person geben; damit legt sie ihr Passwort
        fest. Er gilt einmal und bis {formatDateTime(expiresAt)}
        {reason === 'reset' ? '; frühere Links gelten nicht mehr.' : '.'}
      </p>
    </ShownOnce>
  );
}
