// The admin app: the handlers (list, edit, map, export, history), the import and the accounts.
// A viewer sees the handlers read-only: write controls are not rendered for that role, and the
// API refuses a write a viewer forces anyway (403, shown as it comes).
import { useState } from 'preact/hooks';
import { AccountBar } from '../lib/account-bar';
import type { Session } from '../lib/session';
import { Accounts } from './accounts';
import { HandlerList } from './handlers';
import { ImportPanel } from './import';

type Section = 'handlers' | 'import' | 'accounts';

const SECTIONS: { id: Section; name: string; adminOnly: boolean }[] = [
  { id: 'handlers', name: 'Hundeführer', adminOnly: false },
  { id: 'import', name: 'Import', adminOnly: true },
  { id: 'accounts', name: 'Konten', adminOnly: true },
];

/** Whether the signed-in account may change records (admin) or only read them (viewer). */
export const canWrite = (session: Session): boolean => session.me.role === 'admin';

export function AdminApp({ session }: { session: Session }) {
  const [section, setSection] = useState<Section>('handlers');
  const sections = SECTIONS.filter((s) => !s.adminOnly || canWrite(session));
  return (
    <>
      <AccountBar session={session} />
      {sections.length > 1 && (
        <nav aria-label="Bereiche" class="sections">
          {sections.map((s) => (
            <button
              key={s.id}
              type="button"
              class="secondary"
              aria-current={section === s.id ? 'page' : undefined}
              onClick={() => setSection(s.id)}
            >
              {s.name}
            </button>
          ))}
        </nav>
      )}
      {section === 'handlers' && <HandlerList session={session} />}
      {section === 'import' && <ImportPanel session={session} />}
      {section === 'accounts' && <Accounts session={session} />}
    </>
  );
}
