// The set-password link of a new account or a reset password, shown once: the API hands out its
// token only in that answer, and the page keeps it in memory only (a reload forgets it).
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatDateTime } from '../lib/format';

export interface IssuedLink {
  username: string;
  link: string;
  expiresAt: string;
  reason: 'created' | 'reset';
}

export function OneTimeLink(props: { issued: IssuedLink; onDone: () => void }) {
  const { username, link, expiresAt, reason } = props.issued;
  const [copied, setCopied] = useState<string>('');
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    setCopied('');
    heading.current?.focus();
  }, [link]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied('Link kopiert.');
    } catch {
      // No clipboard (permission refused, or no secure context): the field can be copied by hand.
      setCopied('Kopieren nicht möglich: bitte den Link im Feld markieren und kopieren.');
    }
  }

  return (
    <section class="panel one-time-link" aria-labelledby="einmal-link">
      <h3 id="einmal-link" tabIndex={-1} ref={heading}>
        {reason === 'created' ? 'Konto angelegt: ' : 'Passwort zurückgesetzt: '}
        Link für {username}
      </h3>
      <p>
        Dieser Link wird nur jetzt angezeigt. Bitte der Person geben; damit legt sie ihr Passwort
        fest. Er gilt einmal und bis {formatDateTime(expiresAt)}
        {reason === 'reset' ? '; frühere Links gelten nicht mehr.' : '.'}
      </p>
      <label for="einmal-link-feld">Link zum Setzen des Passworts</label>
      <input
        id="einmal-link-feld"
        readOnly
        value={link}
        onFocus={(event) => event.currentTarget.select()}
      />
      <div class="actions">
        <button type="button" onClick={() => void copy()}>
          Link kopieren
        </button>
        <button type="button" class="secondary" onClick={props.onDone}>
          Fertig
        </button>
      </div>
      <p class="status" role="status">
        {copied}
      </p>
    </section>
  );
}
