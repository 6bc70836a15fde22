// The register snapshot is built by independent builders, one per category of state
// (lib/state/<category>.ts). Each reads only what the client wants and returns the keys it adds;
// lib/state/index.ts lists them, and POST /register runs them concurrently.
import type { ClientCapabilities } from '../models/event';
import type { Realm } from '../models/realm';
import type { User } from '../models/user';

export type RegisterOptions = {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  includeSubscribers: 'true' | 'false' | 'partial';
  slimPresence: boolean;
  presenceHistoryLimitDays: number | undefined;
};

export type StateContext = {
  realm: Realm;
  /** The caller; undefined for an unauthenticated (spectator) register. */
  user: User | undefined;
  /** Whether the client wants a category: fetch_event_types, else event_types, else everything. */
  want: (category: string) => boolean;
  /** POST /register named no categories (neither fetch_event_types nor event_types): every one is wanted. */
  wantsAll?: boolean;
  capabilities: ClientCapabilities;
  options: RegisterOptions;
};

export type StateBuilder = (ctx: StateContext) => Promise<Record<string, unknown>>;
