// The admin app: the handlers (list, edit, map, export, history), the import and the accounts,
// each a URL below /verzeichnis/admin/ (web-kit's router): a section's URL opened directly shows
// it after signing in, and Back returns to the previous section or search. A viewer sees the
// handlers read-only: write controls are not rendered for that role, nor the sections that only
// write, and the API refuses a write a viewer forces anyway (403, shown as it comes).
import { AppLocation, Routes, SectionLink } from '@dogshop/web-kit';
import { AccountBar, type Session } from '../lib/session';
import { Accounts } from './accounts';
import { HandlerList } from './handlers';
import { ImportPanel } from './import';
import '@dogshop/web-kit/app.css';

/** The admin app's URL: its first section, the handlers; the others below it. */
export const ADMIN_BASE = '/verzeichnis/admin/';

const SECTIONS = [
  { path: ADMIN_BASE, name: 'Hundeführer', adminOnly: false, component: HandlerList },
  { path: `${ADMIN_BASE}import`, name: 'Import', adminOnly: true, component: ImportPanel },
  { path: `${ADMIN_BASE}konten`, name: 'Konten', adminOnly: true, component: Accounts },
];

/** Whether the signed-in account may change records (admin) or only read them (viewer). */
export const canWrite = (session: Session): boolean => session.me.role === 'admin';

export function AdminApp({ session }: { session: Session }) {
  return (
    <AppLocation base={ADMIN_BASE}>
      <Sections session={session} />
    </AppLocation>
  );
}

function Sections({ session }: { session: Session }) {
  const sections = SECTIONS.filter((s) => !s.adminOnly || canWrite(session));
  return (
    <>
      <AccountBar session={session} />
      {sections.length > 1 && (
        <nav aria-label="Bereiche" class="sections">
          {sections.map((s) => (
            <SectionLink key={s.path} href={s.path}>
              {s.name}
            </SectionLink>
          ))}
        </nav>
      )}
      <Routes
        routes={sections.map(({ path, component: Section }) => ({
          path,
          render: () => <Section session={session} />,
        }))}
        fallback={() => <NoSection />}
      />
    </>
  );
}

/** A URL below the app that names no section of this account (or none at all). */
function NoSection() {
  return (
    <section aria-labelledby="kein-bereich">
      <h2 id="kein-bereich">Diesen Bereich gibt es nicht</h2>
      <p>
        Die Adresse nennt keinen Bereich, den Ihr Konto öffnen kann.{' '}
        <a href={ADMIN_BASE}>Zur Liste der Hundeführer</a>
      </p>
    </section>
  );
}
