// Staff accounts (admins only): who signs in to the admin app, with which role. A new account's
// set-password link, and a reset's new one, is shown once; roles are changed in place; accounts
// are disabled and enabled. The API refuses to disable or demote the last enabled admin; its
// message shows on that account's card.
import { ErrorAlert, useResource } from '@dogshop/web-kit';
import { useRef, useState } from 'preact/hooks';
import type { SectionProps } from '../app/app';
import { outcome } from '../lib/api';
import { setPasswordLink } from '../lib/session';
import { adminOnly } from './admin-only';
import { SetPasswordLink, type IssuedLink } from './set-password-link';
import { StaffCard, type StaffAccount } from './staff-card';
import { CreateStaffForm } from './staff-form';
import './settings.css';

const byEmail = (a: StaffAccount, b: StaffAccount) => a.email.localeCompare(b.email);

export const StaffAccounts = adminOnly(function StaffPage({ session }: SectionProps) {
  const { api } = session;
  const list = useResource(() => outcome(api.GET('/admin/staff')), []);
  const accounts = list.data?.data;
  const [issued, setIssued] = useState<IssuedLink | undefined>();
  const [notice, setNotice] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);

  function put(account: StaffAccount) {
    list.mutate((answer) => ({
      ...answer,
      data: [...answer.data.filter((a) => a.id !== account.id), account].sort(byEmail),
    }));
  }

  function issue(
    account: StaffAccount,
    token: string,
    expiresAt: string,
    reason: IssuedLink['reason'],
  ) {
    setNotice('');
    setIssued({
      name: account.name,
      email: account.email,
      link: setPasswordLink(account.email, token),
      expiresAt,
      reason,
    });
  }

  return (
    <section aria-labelledby="page-heading" class="settings">
      <h2 id="page-heading" tabIndex={-1} ref={heading}>
        Staff
      </h2>
      <p class="lead">
        Who signs in to this admin app, and with which role. A new account gets a link to choose its
        password; disabling an account signs it out at once.
      </p>
      <p class="status" role="status">
        {accounts
          ? `${accounts.length} ${accounts.length === 1 ? 'account' : 'accounts'}`
          : list.loading
            ? 'Loading the accounts …'
            : ''}
      </p>
      <ErrorAlert text={list.error} />
      <p class="status" role="status">
        {notice}
      </p>
      {accounts && (
        <ul class="cards" aria-label="Accounts">
          {accounts.map((account) => (
            <StaffCard
              key={account.id}
              api={api}
              account={account}
              isSelf={account.id === session.me.id}
              onChanged={(changed, what) => {
                put(changed);
                setNotice(what);
              }}
              onReset={(token, expiresAt) => issue(account, token, expiresAt, 'reset')}
            />
          ))}
        </ul>
      )}
      {issued && (
        <SetPasswordLink
          issued={issued}
          onDone={() => {
            setIssued(undefined);
            heading.current?.focus();
          }}
        />
      )}
      <CreateStaffForm
        api={api}
        onCreated={(created) => {
          put(created.data);
          issue(
            created.data,
            created.set_password_token,
            created.set_password_expires_at,
            'created',
          );
        }}
      />
    </section>
  );
});
