// The admin app: the handlers (list, edit, map, export, history), the import and the accounts,
// each a URL below /verzeichnis/admin/ (web-kit's router), and so are a handler's editor and
// history (urls.ts): a URL opened directly shows its section or dialog after signing in, and Back
// returns to the previous section or search, or closes the dialog. A viewer sees the
// handlers read-only: write controls are not rendered for that role, nor the sections that only
// write, and the API refuses a write a viewer forces anyway (403, shown as it comes).
import { AppLocation, Routes, SectionLink } from '@dogshop/web-kit';
import type { ComponentType } from 'preact';
import { AccountBar, type Session } from '../lib/session';
import { Accounts } from './accounts';
import { HandlerList } from './handlers';
import { ImportPanel } from './import';
import { ADMIN_BASE, HANDLER_PAGES } from './urls';
import '@dogshop/web-kit/app.css';

interface Section {
  path: string;
  name: string;
  adminOnly: boolean;
  component: ComponentType<{ session: Session }>;
  /**
   * The section's further URLs, shown by the same component (which reads which one from the
   * address bar): it stays mounted between them, so the list keeps its rows and focus.
   */
  pages?: readonly { path: string; adminOnly: boolean }[];
}

const SECTIONS: readonly Section[] = [
  {
    path: ADMIN_BASE,
    name: 'Hundeführer',
    adminOnly: false,
    component: HandlerList,
    // A viewer has no editor: its URLs name nothing that account can open.
    pages: [
      { path: HANDLER_PAGES.history, adminOnly: false },
      { path: HANDLER_PAGES.new, adminOnly: true },
      { path: HANDLER_PAGES.edit, adminOnly: true },
    ],
  },
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
  const allowed = ({ adminOnly }: { adminOnly: boolean }) => !adminOnly || canWrite(session);
  const sections = SECTIONS.filter(allowed).map((s) => ({
    ...s,
    pages: (s.pages ?? []).filter(allowed).map((page) => page.path),
  }));
  return (
    <>
      <AccountBar session={session} />
      {sections.length > 1 && (
        <nav aria-label="Bereiche" class="sections">
          {sections.map((s) => (
            <SectionLink key={s.path} href={s.path} also={s.pages}>
              {s.name}
            </SectionLink>
          ))}
        </nav>
      )}
      <Routes
        routes={sections.flatMap(({ path, pages, component: Section }) =>
          [path, ...pages].map((pattern) => ({
            path: pattern,
            render: () => <Section session={session} />,
          })),
        )}
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
