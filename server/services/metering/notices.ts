import type { UsageNotice } from './rules';

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
