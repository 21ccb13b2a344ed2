import type { UsageNotice } from './rules';
import { escapeHtml } from '../mailer';

/** The mails a use can set off (issue 26): plain words, a link to the dashboard's Usage section. */
export function usageNoticeMail(notice: UsageNotice, publicUrl: string): { subject: string; text: string; html: string } {
  const link = `${publicUrl}/dashboard#usage`;
  const texts: Record<UsageNotice, readonly [subject: string, line: string]> = {
    allowance_80: ['You have used 80 % of your Sage queries', "You have used 80 % of this period's queries on your Sage plan."],
    allowance_100: [
      'You have used all of your Sage queries',
      "You have used all of this period's queries on your Sage plan. Queries now use your credit packs, if you have any, until the period renews.",
    ],
    credits_exhausted: ['Your Sage credits have run out', 'Your Sage credit packs are used up.'],
  };
  const [subject, line] = texts[notice];
  const text = `${line}\n\nSee your usage, and buy more queries, on your dashboard:\n${link}\n`;
  const html = `<p>${line}</p><p><a href="${link}">See your usage on your dashboard</a></p>`;
  return { subject, text, html };
}

/** What an organisation's owners, admins and billing members are told about its seats' uses. */
export type OrgNotice = { kind: 'limit_80' | 'limit_100'; member: string; limit: number } | { kind: 'pool_low'; credits: number };

/** The mail of an organisation's notice: who and what, and a link to its page. */
export function orgNoticeMail(notice: OrgNotice, orgName: string, publicUrl: string): { subject: string; text: string; html: string } {
  const link = `${publicUrl}/dashboard#organisations`;
  const [subject, line] =
    notice.kind === 'pool_low'
      ? [`${orgName}'s shared credits are running low`, `${orgName}'s shared credits are under 10 %: ${notice.credits} left.`]
      : notice.kind === 'limit_80'
        ? [
            `${notice.member} has used 80 % of their limit in ${orgName}`,
            `${notice.member} has used 80 % of the ${notice.limit} shared credits a month ${orgName} allows them.`,
          ]
        : [
            `${notice.member} has reached their limit in ${orgName}`,
            `${notice.member} has used all of the ${notice.limit} shared credits a month ${orgName} allows them. Their next queries are charged to their own account until the period renews or the limit is raised.`,
          ];
  const text = `${line}\n\nSee the organisation's usage and limits on the dashboard:\n${link}\n`;
  const html = `<p>${escapeHtml(line)}</p><p><a href="${escapeHtml(link)}">See the organisation's usage and limits</a></p>`;
  return { subject, text, html };
}
