// The page: the top bar, then three columns (views and channels, the view, people), with the
// reconnecting banner above when the server cannot be reached.
import { appState, list, narrow, reconnecting } from '../store';
import { Compose } from './Compose';
import { Feed } from './Feed';
import { Inbox } from './Inbox';
import { LeftSidebar } from './LeftSidebar';
import { Navbar } from './Navbar';
import { Popovers } from './Popovers';
import { RightSidebar } from './RightSidebar';
import { OverlayLoader } from './OverlayLoader';

const Banner = () =>
  reconnecting.value ? (
    <div class="banner reconnecting" role="status">
      Reconnecting… The server cannot be reached; the app keeps trying.
    </div>
  ) : null;

export const App = () => {
  if (!appState.value) {
    return (
      <div class="app-loading" aria-busy="true">
        <Banner />
        <span class="brand-mark" aria-hidden="true" />
        <p>Loading…</p>
      </div>
    );
  }
  const view = narrow.value;
  return (
    <div class="app-layout">
      <Banner />
      <Navbar />
      <div class="columns">
        <LeftSidebar />
        <main class="middle" aria-label="Messages">
          {view.kind === 'inbox' || !list.value ? <Inbox /> : <Feed />}
          {view.kind !== 'inbox' && <Compose />}
        </main>
        <RightSidebar />
      </div>
      <OverlayLoader />
      <Popovers />
    </div>
  );
};
