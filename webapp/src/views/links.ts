// The URL hashes the views link to (one place builds them: store.hashOf).
import type { Narrow } from '../data/narrow';
import { hashOf } from '../store';

export const href = (view: Narrow): string => hashOf(view);
