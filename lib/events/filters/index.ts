// Loads every event filter, so that any function that delivers events applies all of them.
// Add one import per module that calls registerEventFilter.
import './message';
import './presence';
import './realm-linkifiers';
import './typing';
import './user-group';

export { registerEventFilter, type EventFilter } from '../event-filters';
