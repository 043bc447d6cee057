import { render } from 'preact';
import { PAGE_OF_ROLE } from '../lib/pages';
import { SignedIn } from '../lib/session';
import { AdminApp } from './app';

const root = document.getElementById('seite');
if (root) {
  render(
    <SignedIn roles={['admin', 'viewer']} otherPages={PAGE_OF_ROLE}>
      {(session) => <AdminApp session={session} />}
    </SignedIn>,
    root,
  );
}
