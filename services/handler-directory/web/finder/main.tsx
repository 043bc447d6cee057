import { render } from 'preact';
import { Finder } from './finder';

const root = document.getElementById('finder');
if (root) render(<Finder />, root);
