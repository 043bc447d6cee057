// API keys (admins only): the shop's keys with their kind, scopes and last use; a new publishable
// or secret key (a secret one shown once: the shop keeps only its hash); revoking one after a
// confirmation. Active keys first, newest first; revoked ones after them.
import { ErrorAlert, useCall, useResource } from '@dogshop/web-kit';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { SectionProps } from '../app/app';
import { outcome, type Api, type Schemas } from '../lib/api';
import { formatDateTime } from '../lib/format';
import { adminOnly } from './admin-only';
import { CreateKeyForm } from './api-key-form';
import { Confirm } from './confirm';
import { SCOPES } from './scopes';
import { ShownSecret } from './shown-secret';
import './settings.css';

type ApiKey = Schemas['ApiKey'];

/** Active before revoked; within each, the newest first. */
const shownOrder = (a: ApiKey, b: ApiKey) =>
  Number(a.revoked_at !== null) - Number(b.revoked_at !== null) || b.id - a.id;

export const ApiKeys = adminOnly(function ApiKeysPage({ session }: SectionProps) {
  const { api } = session;
  const list = useResource(() => outcome(api.GET('/admin/api-keys')), []);
  const keys = list.data ? [...list.data.data].sort(shownOrder) : undefined;
  const [secret, setSecret] = useState<{ title: string; key: string } | undefined>();
  const [notice, setNotice] = useState('');
  const [revoking, setRevoking] = useState<ApiKey | undefined>();
  const heading = useRef<HTMLHeadingElement>(null);
  // Set when a revocation closes the dialog: its Revoke button is gone, so the page's heading
  // takes the focus (after the modal dialog, which makes the rest inert, is closed).
  const focusHeading = useRef(false);
  useEffect(() => {
    if (revoking || !focusHeading.current) return;
    focusHeading.current = false;
    heading.current?.focus();
  }, [revoking]);

  const put = (key: ApiKey) =>
    list.mutate((answer) => ({
      ...answer,
      data: [...answer.data.filter((k) => k.id !== key.id), key],
    }));

  return (
    <section aria-labelledby="page-heading" class="settings">
      <h2 id="page-heading" tabIndex={-1} ref={heading}>
        API keys
      </h2>
      <p class="lead">
        Keys let programs use the shop’s API: a publishable key a storefront in the browser, a
        secret key a program on a server, limited to its scopes.
      </p>
      <p class="status" role="status">
        {keys
          ? `${keys.length} ${keys.length === 1 ? 'key' : 'keys'}`
          : list.loading
            ? 'Loading the keys …'
            : ''}
      </p>
      <ErrorAlert text={list.error} />
      <p class="status" role="status">
        {notice}
      </p>
      {keys && keys.length > 0 && (
        <div class="table-wrap">
          <table class="keys-table" aria-label="API keys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">Key</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <KeyRow key={key.id} apiKey={key} onRevoke={setRevoking} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {secret && (
        <ShownSecret
          id="new-secret-key"
          heading={`Secret key “${secret.title}” created`}
          label="Secret key"
          value={secret.key}
          onDone={() => {
            setSecret(undefined);
            heading.current?.focus();
          }}
        >
          <p>
            Copy the key now into the settings of the program that uses it: it is shown only this
            once. The shop keeps only a fingerprint of it; if it is lost, create a new key and
            revoke this one.
          </p>
        </ShownSecret>
      )}
      <CreateKeyForm
        api={api}
        onCreated={(created) => {
          put(created.data);
          if (created.data.type === 'secret') {
            setNotice('');
            setSecret({ title: created.data.title, key: created.key });
          } else {
            setSecret(undefined);
            setNotice(`Publishable key “${created.data.title}” created: ${created.key}`);
          }
        }}
      />
      {revoking && (
        <RevokeKey
          api={api}
          apiKey={revoking}
          onRevoked={() => {
            put({ ...revoking, revoked_at: new Date().toISOString() });
            setNotice(`“${revoking.title}” is revoked: it opens nothing any more.`);
            focusHeading.current = true;
            setRevoking(undefined);
            // The list reads the revocation's own time.
            list.reload();
          }}
          onClose={() => setRevoking(undefined)}
        />
      )}
    </section>
  );
});

/** A secret key's scopes as the list says them ("All scopes" rather than eleven names). */
const scopesText = (key: ApiKey) =>
  key.type === 'publishable'
    ? '—'
    : SCOPES.every((scope) => key.scopes.includes(scope))
      ? 'All scopes'
      : key.scopes.join(', ');

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: (key: ApiKey) => void }) {
  return (
    <tr>
      <th scope="row" class="key-title">
        {apiKey.title}
      </th>
      <td>{apiKey.type === 'secret' ? 'Secret' : 'Publishable'}</td>
      <td class="key-text">{apiKey.key ?? apiKey.redacted}</td>
      <td class="key-scopes">{scopesText(apiKey)}</td>
      <td class="nowrap">{formatDateTime(apiKey.created_at)}</td>
      <td class="nowrap">{apiKey.last_used_at ? formatDateTime(apiKey.last_used_at) : 'Never'}</td>
      <td>
        {apiKey.revoked_at ? (
          <span class="muted">Revoked {formatDateTime(apiKey.revoked_at)}</span>
        ) : (
          <button type="button" class="secondary" onClick={() => onRevoke(apiKey)}>
            Revoke<span class="visually-hidden"> {apiKey.title}</span>
          </button>
        )}
      </td>
    </tr>
  );
}

function RevokeKey(props: {
  api: Api;
  apiKey: ApiKey;
  onRevoked: () => void;
  onClose: () => void;
}) {
  const { apiKey } = props;
  const call = useCall();

  async function revoke() {
    const revoked = await call.run(
      outcome(props.api.DELETE('/admin/api-keys/{id}', { params: { path: { id: apiKey.id } } })),
    );
    if (revoked) props.onRevoked();
  }

  return (
    <Confirm
      id="revoke-key"
      heading={`Revoke “${apiKey.title}”?`}
      confirm="Revoke key"
      busyText="Revoking …"
      busy={call.busy}
      error={call.error}
      onConfirm={() => void revoke()}
      onClose={props.onClose}
    >
      <p>
        Every program using this key ({apiKey.redacted}) is refused from now on. A revoked key
        cannot be used again; a program that still needs access gets a new key.
      </p>
    </Confirm>
  );
}
