// Not built yet: Categories.
import type { SectionProps } from '../app/app';

export function Categories(_props: SectionProps) {
  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">Categories</h2>
    </section>
  );
}
