// The shop's admin app: each section a URL below /app/ (web-kit's router), the orders first. A
// viewer sees no write control (`canWrite`), a staff member no settings (`adminOnly`); the API
// refuses what either forces anyway (403, shown as it comes).
import { AppLocation, Routes, SectionLink } from '@dogshop/web-kit';
import { AccountBar, type Session } from '../lib/session';
import { Categories } from '../categories/categories';
import { CustomerPage } from '../customers/customer';
import { Customers } from '../customers/customers';
import { Dashboard } from '../dashboard/dashboard';
import { OrderPage } from '../orders/order';
import { Orders } from '../orders/orders';
import { ProductImport } from '../products/import';
import { ProductPage } from '../products/product';
import { Products } from '../products/products';
import { Reviews } from '../reviews/reviews';
import { ApiKeys } from '../settings/api-keys';
import { StaffAccounts } from '../settings/staff';
import { WebhookPage } from '../settings/webhook';
import { Webhooks } from '../settings/webhooks';
import { APP_BASE } from './paths';

/** Whether the signed-in account may change records (admin, staff) or only read them (viewer). */
export const canWrite = (session: Session): boolean => session.me.role !== 'viewer';

/** What a section's component gets: the session, and the URL's parameters (`:id`). */
export interface SectionProps {
  session: Session;
  params: Record<string, string>;
}

interface Section {
  /** The nav's link; absent: a page of the section above it (an order), reached from there. */
  name?: string;
  path: string;
  /** The section's pages, for the nav's current mark (`/app/orders/:id` under the orders). */
  also?: string[];
  adminOnly?: boolean;
  component: (props: SectionProps) => preact.JSX.Element;
}

const SECTIONS: Section[] = [
  { name: 'Orders', path: APP_BASE, also: ['/app/orders/:id'], component: Orders },
  { path: '/app/orders/:id', component: OrderPage },
  {
    name: 'Products',
    path: '/app/products',
    also: ['/app/products/:id', '/app/products/import'],
    component: Products,
  },
  { path: '/app/products/import', component: ProductImport },
  { path: '/app/products/:id', component: ProductPage },
  { name: 'Categories', path: '/app/categories', component: Categories },
  { name: 'Customers', path: '/app/customers', also: ['/app/customers/:id'], component: Customers },
  { path: '/app/customers/:id', component: CustomerPage },
  { name: 'Reviews', path: '/app/reviews', component: Reviews },
  { name: 'Dashboard', path: '/app/dashboard', component: Dashboard },
  { name: 'Staff', path: '/app/settings/staff', adminOnly: true, component: StaffAccounts },
  { name: 'API keys', path: '/app/settings/keys', adminOnly: true, component: ApiKeys },
  {
    name: 'Webhooks',
    path: '/app/settings/webhooks',
    also: ['/app/settings/webhooks/:id'],
    adminOnly: true,
    component: Webhooks,
  },
  { path: '/app/settings/webhooks/:id', adminOnly: true, component: WebhookPage },
];

export function AdminApp({ session }: { session: Session }) {
  return (
    <AppLocation base={APP_BASE}>
      <Sections session={session} />
    </AppLocation>
  );
}

function Sections({ session }: { session: Session }) {
  const sections = SECTIONS.filter((s) => !s.adminOnly || session.me.role === 'admin');
  return (
    <>
      <AccountBar session={session} />
      <nav aria-label="Sections" class="sections">
        {sections.map(
          (s) =>
            s.name && (
              <SectionLink key={s.path} href={s.path} also={s.also}>
                {s.name}
              </SectionLink>
            ),
        )}
      </nav>
      <Routes
        routes={sections.map(({ path, component: Section }) => ({
          path,
          render: (params) => <Section session={session} params={params} />,
        }))}
        fallback={() => <NoSection />}
      />
    </>
  );
}

/** A URL below the app that names no section of this account (or none at all). */
function NoSection() {
  return (
    <section aria-labelledby="no-section">
      <h2 id="no-section">There is no such page</h2>
      <p>
        The address names no page your account can open. <a href={APP_BASE}>Go to the orders</a>
      </p>
    </section>
  );
}
