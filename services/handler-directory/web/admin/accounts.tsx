// The accounts (admin): who signs in, with which role, bound to which handler record; creating
// one (its set-password link shown once), disabling and enabling, changing the role or the
// record, and a new set-password link. The API's refusals (a taken username, the last admin)
// are shown as they come.
import { ErrorAlert, useResource } from '@dogshop/web-kit';
import { useEffect, useState } from 'preact/hooks';
import { outcome, type Account, type Api } from '../lib/api';
import { ROLE_NAMES } from '../lib/pages';
import { setPasswordLink, type Role, type Session } from '../lib/session';
import { useCall } from '../lib/use-call';
import { AccountEditor, CreateAccountForm } from './account-forms';
import { OneTimeLink, type IssuedLink } from './one-time-link';
import './admin-tools.css';

/** Names of the handler records accounts are bound to, by id; null: the record is gone. */
type HandlerNames = Record<string, string | null>;

const byUsername = (a: Account, b: Account) => a.username.localeCompare(b.username, 'de');

export function Accounts({ session }: { session: Session }) {
  const { api } = session;
  const list = useResource(() => outcome(api.GET('/api/accounts')), []);
  const accounts = list.data?.data;
  const { error } = list;
  const [names, setNames] = useState<HandlerNames>({});
  const [issued, setIssued] = useState<IssuedLink | undefined>();

  // The bound records' names, each read once (the list has only ids).
  useEffect(() => {
    const missing = new Set(
      (accounts ?? []).flatMap((a) =>
        a.handlerId && !(a.handlerId in names) ? [a.handlerId] : [],
      ),
    );
    for (const id of missing) {
      api
        .GET('/api/users/{id}', { params: { path: { id } } })
        .then(({ data, response }) =>
          setNames((known) => ({
            ...known,
            // 404: the record was deleted; another failure: not known (shown as such).
            [id]: data ? data.data.name : response.status === 404 ? null : '',
          })),
        )
        .catch(() => undefined);
    }
  }, [accounts]);

  function put(account: Account, handlerName?: string) {
    list.mutate((answer) => ({
      ...answer,
      data: [...answer.data.filter((a) => a.id !== account.id), account].sort(byUsername),
    }));
    const { handlerId } = account;
    // The record just chosen: its name is known without reading it.
    if (handlerId && handlerName !== undefined) {
      setNames((known) => ({ ...known, [handlerId]: handlerName }));
    }
  }

  function issue(
    account: { username: string; role: Role },
    token: string | undefined,
    expiresAt: string | undefined,
    reason: IssuedLink['reason'],
  ) {
    if (!token || !expiresAt) return;
    setIssued({
      username: account.username,
      link: setPasswordLink(account, token),
      expiresAt,
      reason,
    });
  }

  return (
    <section aria-labelledby="konten" class="admin-tool">
      <h2 id="konten">Konten</h2>
      {issued && <OneTimeLink issued={issued} onDone={() => setIssued(undefined)} />}
      <CreateAccountForm
        api={api}
        onCreated={(created, handlerName) => {
          put(created.data, handlerName);
          issue(created.data, created.setPasswordToken, created.setPasswordExpiresAt, 'created');
        }}
      />
      <h3>Alle Konten</h3>
      <p class="status" role="status">
        {accounts ? `${accounts.length} Konten` : error ? '' : 'Konten werden geladen …'}
      </p>
      <ErrorAlert text={error} />
      {accounts && (
        <ul class="cards account-cards">
          {accounts.map((account) => (
            <AccountCard
              key={account.id}
              api={api}
              account={account}
              handlerName={account.handlerId ? names[account.handlerId] : undefined}
              isSelf={account.id === session.me.id}
              onChanged={put}
              onReset={(token, expiresAt) => issue(account, token, expiresAt, 'reset')}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function AccountCard(props: {
  api: Api;
  account: Account;
  /** undefined: not read yet; null: the record is gone. */
  handlerName: string | null | undefined;
  isSelf: boolean;
  onChanged: (account: Account, handlerName?: string) => void;
  onReset: (token: string, expiresAt: string) => void;
}) {
  const { api, account } = props;
  const { busy, error, run } = useCall();
  const [editing, setEditing] = useState(false);

  async function toggleDisabled() {
    const changed = await run(
      api.PATCH('/api/accounts/{id}', {
        params: { path: { id: account.id } },
        body: { disabled: !account.disabled },
      }),
    );
    if (changed) props.onChanged(changed.data);
  }

  async function resetPassword() {
    const reset = await run(
      api.POST('/api/accounts/{id}/password-reset', { params: { path: { id: account.id } } }),
    );
    if (reset) props.onReset(reset.setPasswordToken, reset.setPasswordExpiresAt);
  }

  const headingId = `konto-${account.id}`;
  // The username completes the name for screen readers (the card has several such buttons);
  // the visible word stays its start.
  const who = <span class="visually-hidden"> ({account.username})</span>;
  return (
    <li class="card" aria-labelledby={headingId}>
      <h4 id={headingId}>{account.username}</h4>
      {props.isSelf && <p class="hint">Ihr eigenes Konto</p>}
      <dl class="facts account-facts">
        <div>
          <dt>Rolle</dt>
          <dd>{ROLE_NAMES[account.role]}</dd>
        </div>
        {account.role === 'handler' && (
          <div>
            <dt>Eintrag</dt>
            <dd>
              {props.handlerName === null
                ? 'gelöscht – bitte einem anderen Eintrag zuordnen oder das Konto deaktivieren'
                : props.handlerName === ''
                  ? 'konnte nicht geladen werden'
                  : (props.handlerName ?? 'wird geladen …')}
            </dd>
          </div>
        )}
        <div>
          <dt>Status</dt>
          <dd>{account.disabled ? 'deaktiviert' : 'aktiv'}</dd>
        </div>
        <div>
          <dt>Passwort</dt>
          <dd>{account.passwordSet ? 'gesetzt' : 'noch nicht gesetzt'}</dd>
        </div>
      </dl>
      <div class="actions">
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() => void toggleDisabled()}
        >
          {account.disabled ? 'Aktivieren' : 'Deaktivieren'}
          {who}
        </button>
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() => void resetPassword()}
        >
          Passwort zurücksetzen{who}
        </button>
        <button
          type="button"
          class="secondary"
          aria-expanded={editing}
          onClick={() => setEditing(!editing)}
        >
          Rolle ändern{who}
        </button>
      </div>
      <ErrorAlert text={error} />
      {editing && (
        <AccountEditor
          api={api}
          account={account}
          handlerName={props.handlerName ?? undefined}
          onSaved={(saved, handlerName) => {
            setEditing(false);
            props.onChanged(saved, handlerName);
          }}
          onCancel={() => setEditing(false)}
        />
      )}
    </li>
  );
}
