// Not built yet: Reviews.
import type { SectionProps } from '../app/app';

export function Reviews(_props: SectionProps) {
  return (
    <section aria-labelledby="page-heading">
      <h2 id="page-heading">Reviews</h2>
    </section>
  );
}
