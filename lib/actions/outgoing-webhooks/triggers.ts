// Which outgoing webhook bots a new message triggers (upstream's get_service_bot_events), and
// handing each to the outgoingWebhook job, which posts to the bot's service after the send has
// answered: a slow or dead service never delays a send.
import type { ServiceTrigger } from '../../integrations/outgoing';
import type { Message } from '../../models/message';
import { BotType, type User } from '../../models/user';
import { startJob } from '../../store/jobs';
import { log } from '../../log';

/** One run of the outgoingWebhook job: a message, the bot it triggered and how, and how many tries have failed so far (upstream's failed_tries). */
export type OutgoingWebhookJob = { realmId: number; messageId: number; botId: number; trigger: ServiceTrigger; failedTries: number };

const isServiceBot = (user: User): boolean => user.isActive && user.botType === BotType.OUTGOING_WEBHOOK && user.service !== undefined;

/**
 * Upstream's get_service_bot_events for outgoing webhook bots: nothing for a message a bot sent
 * (no bot answers a bot, so two bots cannot talk forever); a channel message triggers the
 * service bots it mentions (`mention`), a direct message the service bots among its participants
 * (`direct_message`).
 */
const serviceBotTriggers = (
  sender: User,
  message: Pick<Message, 'streamId'>,
  mentioned: User[],
  participants: User[],
): { botId: number; trigger: ServiceTrigger }[] => {
  if (sender.isBot) return [];
  if (message.streamId !== null) return mentioned.filter(isServiceBot).map((bot) => ({ botId: bot.id, trigger: 'mention' }));
  return participants.filter((u) => u.id !== sender.id && isServiceBot(u)).map((bot) => ({ botId: bot.id, trigger: 'direct_message' }));
};

/**
 * Starts the outgoingWebhook job for each bot a new message triggers (serviceBotTriggers). Never
 * fails the send: a job that cannot be started is logged.
 */
export const doStartOutgoingWebhooks = async (message: Message, sender: User, mentioned: User[], participants: User[]): Promise<void> => {
  for (const { botId, trigger } of serviceBotTriggers(sender, message, mentioned, participants)) {
    const job: OutgoingWebhookJob = { realmId: message.realmId, messageId: message.id, botId, trigger, failedTries: 0 };
    try {
      await startJob('outgoingWebhook', job);
    } catch (error) {
      log.error('outgoing webhook job not started', { outgoingWebhook: job, error: String((error as Error).stack ?? error) });
    }
  }
};
