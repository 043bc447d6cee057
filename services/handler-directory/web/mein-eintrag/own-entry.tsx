// A handler's own entry: availability with an end, the position from the phone, and what the
// public sees. Only the record the account is bound to (`me.handlerId`) is ever loaded; the API
// refuses every other one to a handler account anyway.
import { useResource } from '@dogshop/web-kit';
import { useEffect, useState } from 'preact/hooks';
import { outcome, type Handler } from '../lib/api';
import { HandlerCard } from '../lib/handler-card';
import { AccountBar, type Session } from '../lib/session';
import { Availability } from './availability';
import { Position } from './position';
import { describeEnd, listedAt } from './times';
import './own-entry.css';

/** The clock the page's words follow ("heute 22:00" goes, an end passes), and a phone waking up. */
function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const tick = () => setNow(new Date());
    const timer = setInterval(tick, 30_000);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, []);
  return now;
}

export function OwnEntry({ session }: { session: Session }) {
  const now = useNow();
  const id = session.me.handlerId;
  const entry = useResource(
    id === null
      ? undefined
      : () => outcome(session.api.GET('/api/users/{id}', { params: { path: { id } } })),
    [id],
  );
  const handler = entry.data?.data;
  // 404: the record was deleted; loading it again cannot help.
  const gone = entry.failure?.status === 404;

  const saved = (changed: Handler) => entry.mutate((answer) => ({ ...answer, data: changed }));

  return (
    <>
      <AccountBar session={session} />
      {id === null ? (
        <p class="error" role="alert">
          Ihrem Konto ist kein Eintrag zugeordnet. Bitte wenden Sie sich an die Verwaltung.
        </p>
      ) : (
        <>
          <p class="status" role="status">
            {entry.loading ? 'Ihr Eintrag wird geladen …' : ''}
          </p>
          {entry.error && (
            <>
              <p class="error" role="alert">
                {entry.error}
              </p>
              {!gone && (
                <button type="button" class="secondary wide" onClick={entry.reload}>
                  Erneut laden
                </button>
              )}
            </>
          )}
          {handler && !entry.error && (
            <>
              <Availability session={session} handler={handler} now={now} onSaved={saved} />
              <Position session={session} handler={handler} now={now} onSaved={saved} />
              <Preview handler={handler} now={now} />
            </>
          )}
        </>
      )}
    </>
  );
}

/**
 * Whether the public finds the handler, by the public list's own rule (`listedAt` in the
 * service's repository: available, and no end or one ahead), and the finder's nearest search
 * (only handlers with a position).
 */
function visibility(handler: Handler, now: Date): { seen: boolean; text: string } {
  if (!listedAt(handler, now)) {
    return {
      seen: false,
      text:
        handler.available && handler.availableUntil !== null
          ? `Die Öffentlichkeit sieht Sie gerade nicht: Ihre Verfügbarkeit endete ${describeEnd(handler.availableUntil, now)}.`
          : 'Die Öffentlichkeit sieht Sie gerade nicht: Sie sind nicht verfügbar.',
    };
  }
  if (!handler.gps) {
    return {
      seen: false,
      text: 'Die Suche nach Hundeführern in der Nähe findet Sie nicht: Ihr Standort fehlt. Bitte „Meinen Standort aktualisieren“ wählen.',
    };
  }
  return {
    seen: true,
    text: 'So findet man Sie jetzt in der Suche „Nachsuchenführer in der Nähe“ (dort mit der Entfernung zum Suchenden).',
  };
}

function Preview({ handler, now }: { handler: Handler; now: Date }) {
  const { seen, text } = visibility(handler, now);
  return (
    <section aria-labelledby="vorschau">
      <h2 id="vorschau">So sieht man Sie im Verzeichnis</h2>
      <p class={seen ? 'seen' : 'notice'}>{text}</p>
      <ul class="cards" aria-label="Vorschau Ihres Eintrags">
        <HandlerCard handler={handler} />
      </ul>
      <p class="hint">
        Name, Telefon, Adresse und Typ ändert die Verwaltung des Verbands; bitte dort melden.
      </p>
    </section>
  );
}
