// Not built yet: API keys.
import type { SectionProps } from '../app/app';

export function ApiKeys(_props: SectionProps) {
  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">API keys</h2>
    </section>
  );
}
