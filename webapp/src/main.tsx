// The app's entry: styles, the first render, the session with the server, the URL hash as the
// view (Back and reload keep it), and the page title.
import 'katex/dist/katex.min.css';
import './styles/app.css';
import './styles/highlight.css';
import { effect } from '@preact/signals';
import { render } from 'preact';
import { loadView } from './actions';
import { hashToNarrow } from './data/hash';
import { overlayOfHash } from './data/overlays';
import { startDesktopBridge } from './desktop';
import { startShortcuts } from './keyboard';
import { askNotificationPermission } from './notifications';
import { startPresence } from './presence';
import { runSession } from './session';
import { narrow, title } from './store';
import { App } from './views/App';

const viewOfHash = () => hashToNarrow(window.location.hash) ?? { kind: 'inbox' as const };

window.addEventListener('hashchange', () => {
  // An overlay (OverlayLoader) opens over the view, which stays.
  if (overlayOfHash(window.location.hash)) return;
  void loadView(viewOfHash()).catch(() => undefined);
});

effect(() => {
  document.title = title.value;
});

render(<App />, document.getElementById('app')!);

let started = false;
void runSession(() => {
  void loadView(narrow.peek()).catch(() => undefined);
  if (started) return;
  started = true;
  startPresence();
  startDesktopBridge();
  startShortcuts();
  askNotificationPermission();
});
