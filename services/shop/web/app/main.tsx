import { render } from 'preact';
import '@dogshop/web-kit/base.css';
import '@dogshop/web-kit/app.css';
import { SignedIn } from '../lib/session';
import { AdminApp } from './app';
import './app.css';

const root = document.getElementById('app');
if (root) {
  render(
    <SignedIn roles={['admin', 'staff', 'viewer']} otherPages={{}}>
      {(session) => <AdminApp session={session} />}
    </SignedIn>,
    root,
  );
}
