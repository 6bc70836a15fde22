// GET /accounts/unsubscribe/<type>/<token>: the one-click unsubscribe link of an email (upstream's
// email_unsubscribe): no sign-in; says which emails stop, or that the link is not recognized.
import { doUnsubscribeByLink } from '../../lib/actions/missed-emails/unsubscribe';
import { messagePage, pageHandler } from '../../lib/web/page-handler';

export const handler = pageHandler(async (ctx) => {
  const { email_type: type = '', token = '' } = ctx.event.pathParameters ?? {};
  const name = await doUnsubscribeByLink(ctx.realm.id, type, token);
  if (name === undefined)
    return messagePage(404, {
      title: 'Unknown email unsubscribe request',
      realmName: ctx.realm.name,
      paragraphs: ["Hi there! It looks like you tried to unsubscribe from something, but we don't recognize the URL."],
    });
  return messagePage(200, {
    title: 'Email settings updated',
    realmName: ctx.realm.name,
    paragraphs: [`You've successfully unsubscribed from ${name} emails for ${ctx.realm.name}.`],
  });
});
