// Not built yet: Webhooks.
import type { SectionProps } from '../app/app';

export function Webhooks(_props: SectionProps) {
  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">Webhooks</h2>
    </section>
  );
}
