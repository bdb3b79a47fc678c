import { render } from 'preact';
import { App } from './app.js';
import { interceptLinks } from './router.js';

const root = document.getElementById('app')!;
interceptLinks(root);
render(<App />, root);
