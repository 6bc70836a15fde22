// The `push` job's payloads (lib/actions/push/job.ts runs them): the end-to-end path's and the
// legacy tokens' (lib/actions/push/), one type that both paths start jobs with.
import type { LegacyTokenKind } from './push-legacy';

/** The `push` job's work on a legacy token: forward its registration to the bouncer, or its removal. */
export type LegacyTokenJob = { realmId: number; userId: number; tokenKind: LegacyTokenKind; token: string } & (
  { kind: 'legacyRegister' } | { kind: 'legacyUnregister' }
);

/** The `push` job's work: forward a device's registration, or send a message's notifications. */
export type PushJob =
  | {
      kind: 'register';
      realmId: number;
      userId: number;
      deviceId: number;
      tokenId: string;
      bouncerPublicKey: string;
      encryptedPushRegistration: string;
    }
  | {
      kind: 'message';
      realmId: number;
      messageId: number;
      /** Recipients by why they may be notified (lib/events/fanout.ts encodeUserIds, sorted). */
      direct: string;
      mentioned: string;
      wildcardMentioned: string;
      /** Subscribers whose subscription turns the channel's push notifications on (absent in jobs started before it existed). */
      channelPush?: string;
      /** An edit's new mentions: only those named are notified, and only of the mention. */
      onlyMentions?: boolean;
      /** The job's own id, the same in each of its runs (claimPushNotification); absent in jobs started before it. */
      jobId?: string;
    }
  | { kind: 'remove'; realmId: number; userId: number; messageIds: number[] }
  /** A deleted message: its notifications on the phones of whichever of `userIds` (encodeUserIds) were notified. */
  | { kind: 'removeDeleted'; realmId: number; messageId: number; userIds: string }
  | LegacyTokenJob;
