// One staff account on the staff page: its state, its role changed in place, disabling and
// enabling, and a new set-password link. One call at a time per account; a refusal (the last
// enabled admin can be neither disabled nor demoted) is the API's message, on this card.
import { ErrorAlert, useCall } from '@dogshop/web-kit';
import type { TargetedSubmitEvent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { outcome, type Api, type Schemas, type StaffRole } from '../lib/api';
import { formatDateTime } from '../lib/format';
import { ROLE_CHOICES, RoleSelect } from './roles';

export type StaffAccount = Schemas['StaffAccount'];

const roleLabel = (role: StaffRole) => ROLE_CHOICES.find((c) => c.role === role)?.label ?? role;

export function StaffCard(props: {
  api: Api;
  account: StaffAccount;
  isSelf: boolean;
  onChanged: (account: StaffAccount, what: string) => void;
  onReset: (token: string, expiresAt: string) => void;
}) {
  const { api, account } = props;
  const call = useCall();
  const [role, setRole] = useState<StaffRole>(account.role);
  // The saved role when the list changes it; a refused choice stays shown, with its Save and the
  // API's message, until another role is chosen.
  useEffect(() => setRole(account.role), [account.role]);

  const path = { params: { path: { id: account.id } } };

  async function saveRole(event: TargetedSubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (call.busy || role === account.role) return;
    const saved = await call.run(
      outcome(api.PATCH('/admin/staff/{id}', { ...path, body: { role } })),
    );
    if (saved)
      props.onChanged(saved.data, `${saved.data.name} is now ${roleLabel(saved.data.role)}.`);
  }

  async function toggleDisabled() {
    const disabled = !account.disabled;
    const saved = await call.run(
      outcome(api.PATCH('/admin/staff/{id}', { ...path, body: { disabled } })),
    );
    if (saved) {
      props.onChanged(
        saved.data,
        disabled
          ? `${saved.data.name} is disabled and signed out everywhere.`
          : `${saved.data.name} can sign in again.`,
      );
    }
  }

  async function reset() {
    const issued = await call.run(outcome(api.POST('/admin/staff/{id}/password-reset', path)));
    if (issued) props.onReset(issued.set_password_token, issued.set_password_expires_at);
  }

  const id = `staff-${account.id}`;
  // The e-mail completes the buttons' names for screen readers (every card has them).
  const whose = <span class="visually-hidden"> ({account.email})</span>;
  return (
    <li class="card" aria-labelledby={id}>
      <h4 id={id}>{account.name}</h4>
      <p class="card-email">{account.email}</p>
      {props.isSelf && <p class="hint">Your own account</p>}
      <dl class="facts-list">
        <dt>Status</dt>
        <dd>{account.disabled ? 'Disabled' : 'Active'}</dd>
        <dt>Password</dt>
        <dd>{account.has_password ? 'Set' : 'Not set yet'}</dd>
        <dt>Last sign-in</dt>
        <dd>{account.last_login_at ? formatDateTime(account.last_login_at) : 'Never'}</dd>
      </dl>
      <form
        class="role-form"

        onSubmit={(e) => void saveRole(e)}
      >
        <label for={`${id}-role`}>
          Role<span class="visually-hidden"> of {account.name}</span>
        </label>
        <div class="inline-field">
          <RoleSelect id={`${id}-role`} value={role} onChange={setRole} />
          {role !== account.role && (
            <button type="submit" disabled={call.busy}>
              Save role{whose}
            </button>
          )}
        </div>
      </form>
      <div class="button-row">
        <button
          type="button"
          class="secondary"
          disabled={call.busy}
          onClick={() => void toggleDisabled()}
        >
          {account.disabled ? 'Enable' : 'Disable'}
          {whose}
        </button>
        {!account.disabled && (
          <button type="button" class="secondary" disabled={call.busy} onClick={() => void reset()}>
            Reset password{whose}
          </button>
        )}
      </div>
      <ErrorAlert text={call.error} />
    </li>
  );
}
