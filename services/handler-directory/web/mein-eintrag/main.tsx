import { render } from 'preact';
import { PAGE_OF_ROLE } from '../lib/pages';
import { SignedIn } from '../lib/session';
import { OwnEntry } from './own-entry';

const root = document.getElementById('seite');
if (root) {
  render(
    <SignedIn roles={['handler']} otherPages={PAGE_OF_ROLE}>
      {(session) => <OwnEntry session={session} />}
    </SignedIn>,
    root,
  );
}
