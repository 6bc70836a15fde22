// GET /emails/ (development mode only): the emails sent through the local SES store.
import { listDevelopmentEmails } from '../../lib/actions/way-in/dev-emails';
import { publicApiHandler, RawResponse } from '../../lib/http/api-handler';
import { devEmailsPage, notFoundPage } from '../../lib/web/dev-emails';

const html = (statusCode: number, body: string) =>
  new RawResponse({ statusCode, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }, body });

export const handler = publicApiHandler(async () => {
  const emails = await listDevelopmentEmails();
  return emails === undefined ? html(404, notFoundPage()) : html(200, devEmailsPage(emails));
});
