// Actions that check a requirement of the caller (a role, a setting) before anything else, so that
// the check lives in the action and a second entry point cannot skip it, while a handler can still
// refuse before it reads its parameters, as upstream's decorators (require_realm_admin,
// human_users_only, draft_endpoint) run before its parameter parsing.
import { requireHumanUser, requireMemberOrAdmin, requireRealmAdmin, requireRealmOwner } from '../access/roles';
import type { User } from '../models/user';

type Act<A extends unknown[], R, S = User> = (subject: S, ...args: A) => Promise<R>;

/** An action whose first step is a requirement of its caller (`S`: the user; nothing for a requirement of the deployment). */
export type RequiringAction<A extends unknown[], R, S = User> = {
  /** Checks the requirement (a refusal is the returned promise's rejection), then acts. */
  (subject: S, ...args: A): Promise<R>;
  /**
   * Checks the requirement now (a refusal throws) and returns the action for this caller, to be
   * called once the request's parameters are read; the requirement is not checked again.
   */
  authorize: (subject: S) => (...args: A) => Promise<R>;
};

/**
 * `requiring(requireRealmAdmin, act)`: the action `act` behind the check `require` (which throws
 * the API error). Both ways to call it check exactly once.
 */
export const requiring = <S, A extends unknown[], R>(require: (subject: S) => void, act: Act<A, R, S>): RequiringAction<A, R, S> => {
  const authorize = (subject: S) => {
    require(subject);
    return (...args: A): Promise<R> => act(subject, ...args);
  };
  return Object.assign(async (subject: S, ...args: A): Promise<R> => authorize(subject)(...args), { authorize });
};

/** An action for administrators (upstream's require_realm_admin: "Must be an organization administrator"). */
export const forAdministrators = <A extends unknown[], R>(act: Act<A, R>) => requiring(requireRealmAdmin, act);

/** An action for organization owners (upstream's require_realm_owner: "Must be an organization owner"). */
export const forOwners = <A extends unknown[], R>(act: Act<A, R>) => requiring(requireRealmOwner, act);

/** An action for members and administrators (upstream's require_member_or_admin): guests and bots are refused. */
export const forMembers = <A extends unknown[], R>(act: Act<A, R>) => requiring(requireMemberOrAdmin, act);

/** An action for human users (upstream's human_users_only): bots are refused. */
export const forHumans = <A extends unknown[], R>(act: Act<A, R>) => requiring(requireHumanUser, act);
