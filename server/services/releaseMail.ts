import { enginesText } from '../../contract/releaseEmails';
import { notesText, parseReleaseNotes } from '../../contract/releaseNotes';
import type { EngineVersion } from '../../contract/pluginVersions';
import type { Mail } from './mailer';
import { escapeHtml } from './mailer';
import { releaseNotesHtml } from './releaseNotesHtml';

/** What a release e-mail says: the build, the user's engines it ships for, and the links it carries. */
export interface ReleaseMailContent {
  version: string;
  /** The engines of the build the user gets it for: theirs it ships for, or all it ships for. */
  engines: readonly EngineVersion[];
  notes: string;
  downloadLink: string;
  accountLink: string;
  /** The portal page that asks for one click (a GET never unsubscribes: mail scanners follow links). */
  unsubscribePage: string;
  /** RFC 8058's one-click address: a bodiless POST to it turns the e-mails off. */
  unsubscribeUrl: string;
}

/** The release e-mail (issue 41): version, engines, notes, where to download, why it came, how to stop it. */
export function releaseMail(content: ReleaseMailContent): Omit<Mail, 'to'> {
  const engines = enginesText(content.engines);
  const notes = parseReleaseNotes(content.notes);
  const intro = `Sage ${content.version} for ${engines} is out.`;
  const why = `You get this e-mail because you asked, in the Account section of your Sage dashboard, to be told when a Sage build for your Unreal Engine version is released.`;
  const stop = 'To stop these e-mails, open this link and confirm, or turn them off in the Account section:';
  const text = [
    intro,
    ...(notes.length > 0 ? [`What's new:\n\n${notesText(notes)}`] : []),
    `Download it here:\n${content.downloadLink}`,
    why,
    `${stop}\n${content.unsubscribePage}`,
    `Account section:\n${content.accountLink}`,
  ].join('\n\n');
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    ...(notes.length > 0 ? [`<h2>What's new</h2>`, releaseNotesHtml(content.notes)] : []),
    `<p><a href="${escapeHtml(content.downloadLink)}">Download Sage ${escapeHtml(content.version)}</a></p>`,
    `<p>${escapeHtml(why)}</p>`,
    `<p><a href="${escapeHtml(content.unsubscribePage)}">Stop release e-mails</a>, or turn them off in the <a href="${escapeHtml(content.accountLink)}">Account section</a>.</p>`,
  ].join('\n');
  return {
    subject: `Sage ${content.version} is out`,
    text: `${text}\n`,
    html,
    headers: {
      'List-Unsubscribe': `<${content.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
