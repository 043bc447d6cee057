// Not built yet: Dashboard.
import type { SectionProps } from '../app/app';

export function Dashboard(_props: SectionProps) {
  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">Dashboard</h2>
    </section>
  );
}
