import nodemailer from 'nodemailer';
import { env } from '../env';
import { formatDateTime } from '../format/date-time';
import { ROLE_LABELS, type Role } from './roles';

/**
 * Invitation mail, sent through SMTP_URL when it is set (docs/portal.md, "Invitations"). Without it the link is
 * only shown to the inviter, who passes it on. A failed send never loses the invitation: the link is shown
 * anyway and the inviter is told the mail did not go out. The link is never logged.
 */
export type MailOutcome = 'sent' | 'not_configured' | 'failed';

let transport: { url: string; transporter: nodemailer.Transporter } | null = null;

function transporter(url: string): nodemailer.Transporter {
  if (transport?.url !== url) transport = { url, transporter: nodemailer.createTransport(url) };
  return transport.transporter;
}

export function invitationMail(input: {
  to: string;
  workspaceName: string;
  role: Role;
  invitedBy: string;
  url: string;
  expiresAt: Date;
}) {
  const role = ROLE_LABELS[input.role];
  // A mail does not know its reader's time zone: the portal's format, in UTC (labelled).
  const until = formatDateTime(input.expiresAt, 'UTC');
  const text = [
    `${input.invitedBy} invited you to join the workspace "${input.workspaceName}" as ${role}.`,
    '',
    `Accept the invitation: ${input.url}`,
    '',
    `The link works once, until ${until}, and only for an account with the email ${input.to}.`,
    'If you did not expect this invitation, ignore this mail: nothing happens until the link is used.',
  ].join('\n');
  return { to: input.to, subject: `You are invited to ${input.workspaceName}`, text };
}

export async function sendInvitationMail(input: Parameters<typeof invitationMail>[0]): Promise<MailOutcome> {
  const url = env().SMTP_URL;
  if (!url) return 'not_configured';
  try {
    await transporter(url).sendMail({ from: env().MAIL_FROM, ...invitationMail(input) });
    return 'sent';
  } catch (error) {
    console.error('[mail] invitation not sent:', error instanceof Error ? error.message : 'unknown error');
    return 'failed';
  }
}
